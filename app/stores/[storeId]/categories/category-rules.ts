/**
 * The longest category name the form accepts. The platform's documentation says only that a "too long" name is
 * refused (422) without giving the limit; the emulator refuses names over 100 characters, so the form checks the
 * same before sending and says so. Change it here if the platform documents another limit.
 */
export const CATEGORY_NAME_MAX_LENGTH = 100;
