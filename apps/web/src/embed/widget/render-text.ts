/**
 * A reply's text as DOM nodes: paragraphs and line breaks, fenced code blocks, inline code,
 * **bold**, and links — for http(s) URLs only. Every piece of the text goes into a text node, never
 * parsed as HTML, so markup in a model's answer shows as the characters it is.
 */
export const renderText = (text: string, doc: Document = document): DocumentFragment => {
  const out = doc.createDocumentFragment();
  const lines = text.split(/\r\n|\r|\n/);
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    const p = doc.createElement('p');
    paragraph.forEach((line, i) => {
      if (i > 0) p.append(doc.createElement('br'));
      appendInline(p, line, doc);
    });
    out.append(p);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      flush();
      const marker = fence[1]!;
      const code: string[] = [];
      // An open fence (a reply still streaming) runs to the end of the text.
      for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(marker); i++) {
        code.push(lines[i]!);
      }
      const pre = doc.createElement('pre');
      const codeElement = doc.createElement('code');
      codeElement.textContent = code.join('\n');
      if (fence[2]) codeElement.dataset.language = fence[2];
      pre.append(codeElement);
      out.append(pre);
    } else if (line.trim() === '') {
      flush();
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return out;
};

/** The URL when it is an absolute http(s) one, else null (javascript:, data:, relative…). */
export const safeHref = (href: string): string | null => {
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
};

export const linkTo = (href: string, label: string, doc: Document = document) => {
  const a = doc.createElement('a');
  a.href = href;
  a.textContent = label;
  a.target = '_blank';
  a.rel = 'noopener noreferrer nofollow';
  return a;
};

// `code`, **bold**, [label](url), or a bare http(s) URL.
const inline =
  /`([^`\n]+)`|\*\*([^*\n]+?)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)|\bhttps?:\/\/[^\s<>"'`]+/gi;

/** Punctuation that ends a sentence rather than a bare URL, and an unmatched closing bracket. */
const trimUrl = (url: string) => {
  let end = url.replace(/[.,;:!?'"*_]+$/, '');
  if (end.endsWith(')') && !end.includes('(')) end = end.slice(0, -1);
  return end;
};

const appendInline = (parent: HTMLElement, text: string, doc: Document) => {
  let last = 0;
  for (const match of text.matchAll(inline)) {
    const at = match.index;
    let source = match[0];
    let node: Node;
    const [, code, bold, label, href] = match;
    if (code !== undefined) {
      node = doc.createElement('code');
      node.textContent = code;
    } else if (bold !== undefined) {
      node = doc.createElement('strong');
      node.textContent = bold;
    } else if (label !== undefined) {
      const safe = safeHref(href!);
      node = safe ? linkTo(safe, label, doc) : doc.createTextNode(source);
    } else {
      source = trimUrl(source);
      const safe = safeHref(source);
      node = safe ? linkTo(safe, source, doc) : doc.createTextNode(source);
    }
    if (at > last) parent.append(doc.createTextNode(text.slice(last, at)));
    parent.append(node);
    last = at + source.length;
  }
  if (last < text.length) parent.append(doc.createTextNode(text.slice(last)));
};
