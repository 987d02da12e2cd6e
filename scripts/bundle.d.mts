// Types of scripts/bundle.mjs for the tests that import it.
export function asciiOnly(code: string): string;
export function bundle(root: string): Promise<boolean>;
