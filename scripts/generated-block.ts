/** A docs page's generated block: the text between two marker comments, which a script rewrites and a drift test compares. */
export interface GeneratedBlock {
  page: string;
  start: string;
  end: string;
}

/** The page's text with the block's content replaced (markers kept); throws when the page lacks the markers. */
export function withBlock(text: string, block: GeneratedBlock, content: string): string {
  const start = text.indexOf(block.start);
  const end = text.indexOf(block.end);
  if (start < 0 || end < start) throw new Error(`${block.page} has no ${block.start} … ${block.end} block`);
  return `${text.slice(0, start)}${block.start}\n${content}\n${text.slice(end)}`;
}

/** A markdown table: a header row, then one row per entry (a `|` inside a cell is escaped). */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---|').join('')}`, ...rows.map(line)].join('\n');
}
