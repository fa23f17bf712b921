// A remark plugin: the `[1]`, `[2]` a reply cites its knowledge passages by become elements of
// their own (`<sup data-cite="1">`), which the renderer turns into buttons that open the passage.
// It only splits text nodes: nothing of the model's output becomes markup of its choosing.

type Node = {
  type: string;
  value?: string;
  children?: Node[];
  data?: Record<string, unknown>;
};

const markerPattern = /\[(\d{1,3})\]/g;

/** Inside these, a marker stays text: a link cannot hold a button, and code is shown as written. */
const skipped = new Set(['link', 'linkReference', 'inlineCode', 'code', 'math', 'inlineMath']);

const split = (value: string): Node[] | null => {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of value.matchAll(markerPattern)) {
    const at = match.index;
    if (at > last) nodes.push({ type: 'text', value: value.slice(last, at) });
    nodes.push({
      type: 'text',
      value: match[0],
      data: { hName: 'sup', hProperties: { dataCite: match[1] } },
    });
    last = at + match[0].length;
  }
  if (nodes.length === 0) return null;
  if (last < value.length) nodes.push({ type: 'text', value: value.slice(last) });
  return nodes;
};

const visit = (node: Node) => {
  if (!node.children || skipped.has(node.type)) return;
  node.children = node.children.flatMap((child) => {
    if (child.type === 'text' && child.value && !child.data) return split(child.value) ?? [child];
    visit(child);
    return [child];
  });
};

export const remarkCitationMarkers = () => (tree: Node) => {
  visit(tree);
};
