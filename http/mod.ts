/**
 * @module
 */
export {};
