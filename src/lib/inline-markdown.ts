// The little markdown the API description's texts use: `code` spans, and paragraphs split by a
// blank line. Everything else is text, escaped.
import { escapeMarkup } from './markup.ts';

/** One paragraph's HTML: text escaped, `code` spans as <code>. */
export const inlineMarkdown = (text: string): string =>
  text.split(/(`[^`]*`)/).map((part) => (part.length > 1 && part.startsWith('`') && part.endsWith('`') ? `<code>${escapeMarkup(part.slice(1, -1))}</code>` : escapeMarkup(part))).join('');

/** Paragraphs (split on blank lines) of inline markdown. */
export const paragraphs = (text: string): string[] => text.split(/\n{2,}/).map(inlineMarkdown);
