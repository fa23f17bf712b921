// A web feature never imports another feature (ARCHITECTURE §1), whether through the `@/` alias
// or a relative path. Resolved by path arithmetic alone, so no native module resolver is needed.
import { dirname, relative, resolve, sep } from 'node:path';

/** @param {string} featuresDir absolute path of apps/web/src/features */
export function noCrossFeatureImports(featuresDir) {
  const srcDir = dirname(featuresDir);
  /** The feature an absolute path lies in, or null. */
  const featureOf = (file) => {
    const rel = relative(featuresDir, file);
    if (rel.startsWith('..') || rel === '') return null;
    return rel.split(sep)[0];
  };
  const targetOf = (fromFile, source) => {
    if (source.startsWith('@/')) return resolve(srcDir, source.slice(2));
    if (source.startsWith('.')) return resolve(dirname(fromFile), source);
    return null;
  };
  return {
    meta: {
      type: 'problem',
      docs: { description: 'A feature never imports another feature.' },
      messages: {
        crossFeature:
          "Feature '{{from}}' imports feature '{{to}}'. Features never import each other; move what they share to src/components or src/lib.",
      },
      schema: [],
    },
    create(context) {
      const from = featureOf(context.filename);
      if (!from) return {};
      const check = (node) => {
        const source = node.source?.value;
        if (typeof source !== 'string') return;
        const target = targetOf(context.filename, source);
        const to = target && featureOf(target);
        if (to && to !== from)
          context.report({ node: node.source, messageId: 'crossFeature', data: { from, to } });
      };
      return {
        ImportDeclaration: check,
        ExportNamedDeclaration: check,
        ExportAllDeclaration: check,
        ImportExpression: check,
      };
    },
  };
}
