/** Reference data for fixtures and test orders: wilayas with their Arabic names, products, people. */

export const WILAYAS: { id: number; name: string; communes: string[] }[] = [
  { id: 16, name: "الجزائر", communes: ["Bab Ezzouar", "Hydra", "Kouba", "El Biar"] },
  { id: 31, name: "وهران", communes: ["Bir El Djir", "Es Senia", "Arzew"] },
  { id: 25, name: "قسنطينة", communes: ["El Khroub", "Ain Smara", "Hamma Bouziane"] },
  { id: 9, name: "البليدة", communes: ["Boufarik", "Ouled Yaich", "Larbaa"] },
  { id: 19, name: "سطيف", communes: ["El Eulma", "Ain Oulmene"] },
  { id: 6, name: "بجاية", communes: ["Akbou", "Amizour", "Tichy"] },
  { id: 15, name: "تيزي وزو", communes: ["Azazga", "Draa Ben Khedda"] },
  { id: 13, name: "تلمسان", communes: ["Maghnia", "Remchi"] },
];

export const FIRST_NAMES = ["Yasmine", "Sofiane", "Lina", "Walid", "Nour", "Mehdi", "Sarah", "Rayan", "Imane", "Anis", "Meriem", "Adel"];
export const LAST_NAMES = ["Benali", "Haddad", "Cherif", "Mansouri", "Boudiaf", "Kaci", "Saidi", "Belkacem", "Zerrouki", "Amrani"];

export const DELIVERY_COMPANIES = ["Yalidine", "ZR Express", "Maystro Delivery"];

export type ProductSeed = { id: number; name: string; variants: string[]; price: number };

/** Product names per store theme; ids are unique per store (store id * 1000 + n). */
export const STORE_THEMES: Record<number, { categories: { name: string; children: string[] }[]; products: string[] }> = {
  101: {
    categories: [
      { name: "Robes", children: ["Robes de soirée", "Robes d'été"] },
      { name: "Abayas", children: [] },
      { name: "Hijabs", children: ["Hijabs en soie", "Hijabs en coton"] },
      { name: "Accessoires", children: ["Sacs", "Bijoux"] },
      { name: "Chaussures", children: [] },
      { name: "Nouveautés", children: [] },
      { name: "Soldes", children: [] },
    ],
    products: ["Robe Kaftan brodée", "Abaya noire classique", "Hijab soie rose", "Sac cuir camel", "Escarpins dorés"],
  },
  102: {
    categories: [
      { name: "Cuisine", children: ["Ustensiles", "Vaisselle"] },
      { name: "Décoration", children: ["Coussins", "Luminaires"] },
      { name: "Linge de maison", children: [] },
      { name: "Salle de bain", children: ["Serviettes"] },
      { name: "Rangement", children: [] },
      { name: "Idées cadeaux", children: [] },
    ],
    products: ["Service à thé cuivre", "Coussin berbère", "Lampe en rotin", "Parure de lit", "Serviette brodée"],
  },
  103: {
    categories: [
      { name: "Bébé", children: ["Bodies", "Pyjamas"] },
      { name: "Filles", children: ["Robes filles", "Ensembles"] },
      { name: "Garçons", children: ["Ensembles garçons"] },
      { name: "Jouets", children: [] },
      { name: "Rentrée scolaire", children: [] },
      { name: "Archives", children: [] },
    ],
    products: ["Body coton bio", "Robe fille fleurie", "Ensemble garçon jean", "Cartable licorne", "Peluche ours"],
  },
  104: {
    categories: [
      { name: "Déstockage", children: ["Femmes", "Maison"] },
      { name: "Fins de série", children: [] },
      { name: "Lots", children: [] },
      { name: "Derniers articles", children: [] },
      { name: "Vrac", children: [] },
      { name: "Brouillons", children: [] },
    ],
    products: ["Lot de foulards", "Robe fin de série", "Nappe déstockée"],
  },
  201: {
    categories: [
      { name: "Smartphones", children: ["Android", "iPhone"] },
      { name: "Informatique", children: ["Laptops", "Accessoires PC"] },
      { name: "Audio", children: ["Écouteurs"] },
      { name: "Électroménager", children: [] },
      { name: "Gaming", children: [] },
      { name: "Promotions", children: [] },
    ],
    products: ["Smartphone A54", "Écouteurs sans fil", "Laptop 15 pouces", "Souris gamer", "Chargeur rapide"],
  },
  301: {
    categories: [
      { name: "Test products", children: ["Test subcategory"] },
      { name: "Digital goods", children: ["E-books", "Templates"] },
      { name: "Merch", children: [] },
      { name: "Samples", children: [] },
      { name: "Empty", children: [] },
      { name: "Drafts", children: [] },
    ],
    products: ["Test T-shirt", "Sample mug", "E-book starter"],
  },
};

export function productsOf(storeId: number): ProductSeed[] {
  const names = STORE_THEMES[storeId]?.products ?? ["Article"];
  return names.map((name, index) => ({
    id: storeId * 1000 + index + 1,
    name,
    variants: index % 2 === 0 ? ["S", "M", "L"] : [],
    price: 1500 + ((storeId + index * 37) % 20) * 450,
  }));
}
