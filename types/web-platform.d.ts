/**
 * The few web-platform globals that every runtime of shared/ has (Node and the browser alike), declared for
 * tsconfig.shared.json only: shared/ may use these, and neither the DOM nor Node typings
 * (docs/architecture.md §3). Add a member here only when both runtimes have it.
 */

interface URL {
  hash: string;
  host: string;
  hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  username: string;
  toString(): string;
  toJSON(): string;
}

declare var URL: {
  prototype: URL;
  new (url: string | URL, base?: string | URL): URL;
  canParse(url: string | URL, base?: string | URL): boolean;
};

interface TextDecodeOptions {
  stream?: boolean;
}

interface TextDecoder {
  readonly encoding: string;
  decode(input?: Uint8Array, options?: TextDecodeOptions): string;
}

declare var TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
};

declare function structuredClone<T>(value: T): T;

interface TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array;
}

declare var TextEncoder: {
  prototype: TextEncoder;
  new (): TextEncoder;
};
