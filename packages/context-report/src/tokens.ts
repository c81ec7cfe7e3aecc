// Offline there is no tokenizer: about 4 characters a token is the usual rate for English prose and code
// (JSON schemas run denser). The report labels these numbers as estimates and shows the measured total beside.
export const CHARS_PER_TOKEN = 4;

/** What an image block costs when its size is unknown: about a 1.2-megapixel image (width × height / 750). */
export const IMAGE_TOKENS = 1_600;

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}
