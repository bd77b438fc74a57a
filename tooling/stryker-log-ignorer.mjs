// @ts-check
/**
 * A StrykerJS ignorer (the `ignorers` option of tooling/stryker.config.mjs): mutants inside our log calls are left
 * out of the score. A log line's text and fields are for whoever reads the logs; what the line reports (the answer's
 * code, the reason returned) is what the tests pin down. Without it, each log line in the security core needed a
 * "Stryker disable" comment, and a reader met the mutation tool before the rule.
 *
 * Ignored, with every mutant inside:
 * - a call of a logger's level or context method (`log.warn(...)`, `logger.with(() => ...)`, `eventLogger.debug(...)`,
 *   `(deps.logger ?? rootLogger).with(...)`): a logger is `log`, `logger`, or a name ending in `Logger` (lib/log);
 * - a statement that is only such a call (`log.info(...);`, which Stryker's CallExpression mutator removes whole);
 * - an arrow function whose body is such a call (`.catch((error) => log.warn(...))`);
 * - an `if` without `else` whose branch only writes log lines and whose condition has no side effect.
 */
import { declareValuePlugin, PluginKind } from "@stryker-mutator/api/plugin";

export const IGNORER_NAME = "log-calls";

const LOGGER = /^(?:log|logger|[a-z]\w*Logger)$/;
const METHODS = new Set(["debug", "info", "warn", "error", "with"]);
const SIDE_EFFECTS = new Set(["CallExpression", "NewExpression", "AssignmentExpression", "UpdateExpression", "AwaitExpression", "YieldExpression"]);

/** @typedef {{ type: string, [key: string]: any }} Node */

/** @param {Node | null | undefined} node */
function isLogger(node) {
  if (!node) return false;
  switch (node.type) {
    case "Identifier":
      return LOGGER.test(node.name);
    case "MemberExpression":
      return !node.computed && node.property.type === "Identifier" && LOGGER.test(node.property.name);
    case "LogicalExpression":
      return isLogger(node.left) && isLogger(node.right);
    case "ParenthesizedExpression":
    case "TSNonNullExpression":
      return isLogger(node.expression);
    case "CallExpression":
      // `logger.with(...)` is a logger too.
      return isLogCall(node);
    default:
      return false;
  }
}

/** True for `<logger>.debug|info|warn|error|with(...)`. @param {Node | null | undefined} node */
export function isLogCall(node) {
  if (node?.type !== "CallExpression") return false;
  const callee = node.callee;
  return callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier" && METHODS.has(callee.property.name) && isLogger(callee.object);
}

/** @param {unknown} node */
function hasSideEffect(node) {
  if (!node || typeof node !== "object") return false;
  if (Array.isArray(node)) return node.some(hasSideEffect);
  const value = /** @type {Node} */ (node);
  if (typeof value.type === "string" && SIDE_EFFECTS.has(value.type)) return true;
  return Object.entries(value).some(([key, child]) => !["loc", "start", "end", "extra", "leadingComments", "trailingComments", "innerComments"].includes(key) && hasSideEffect(child));
}

/** @param {Node | null | undefined} statement */
function onlyLogs(statement) {
  if (!statement) return false;
  if (statement.type === "ExpressionStatement") return isLogCall(statement.expression);
  if (statement.type === "BlockStatement") return statement.body.length > 0 && statement.body.every(onlyLogs);
  return false;
}

/** The reason a node is ignored, or undefined. @param {Node} node */
export function ignoreReason(node) {
  if (isLogCall(node)) return "a log call: the line is for a reader of the logs; what it reports is tested";
  // Stryker's CallExpression mutator removes a call statement as a whole, a mutant of the statement around the call.
  if (node.type === "ExpressionStatement" && isLogCall(node.expression)) return "a statement that only writes a log line";
  if (node.type === "ArrowFunctionExpression" && isLogCall(node.body)) return "a callback that only writes a log line";
  if (node.type === "IfStatement" && !node.alternate && onlyLogs(node.consequent) && !hasSideEffect(node.test)) {
    return "a condition that decides a log line only";
  }
  return undefined;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, IGNORER_NAME, {
    /** @param {{ node: Node }} path */
    shouldIgnore: (path) => ignoreReason(path.node),
  }),
];
