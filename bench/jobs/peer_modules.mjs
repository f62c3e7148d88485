// Loads a peer package from bench/peers/jobs/node_modules (the runners live in bench/jobs/, outside
// that package, so bare imports would not find it).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(new URL("../peers/jobs/package.json", import.meta.url));

/**
 * Imports an installed peer package.
 *
 * @param {string} name
 * @returns {Promise<any>}
 */
export function peer(name) {
  return import(pathToFileURL(require.resolve(name)).href);
}

/**
 * The version of an installed peer package.
 *
 * @param {string} name
 * @returns {string}
 */
export function peerVersion(name) {
  const file = new URL(`../peers/jobs/node_modules/${name}/package.json`, import.meta.url);
  return JSON.parse(readFileSync(file, "utf8")).version;
}
