import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '@chorus/shared/error-codes';
import { sentenceProblems } from '@chorus/shared/sentences';

/**
 * A static scan of the server's source (ADR 012: unit tests read, they do not run the app): every
 * error code it answers with, and every message it words on the spot instead of taking the
 * catalogue's.
 */
const sourceRoot = fileURLToPath(new URL('..', import.meta.url));

type Use = {
  /** `file:line`, for the failure message. */
  at: string;
  code: string | null;
  /** The message node passed beside the code, if any. */
  message: ts.Expression | undefined;
  /** For `new ApiError(…, code, messageFor(other, …))`: the other code. */
  messageForCode: string | null;
};

const isSource = (file: string) =>
  /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith('.d.ts');

const sourceFiles = (): string[] =>
  readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' })
    .filter(isSource)
    .map((file) => path.join(sourceRoot, file));

const codeLike = /^[a-z_]+:[a-z_]+$/;

const literalText = (node: ts.Node | undefined): string | null =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null;

/** A message as a person would read it, each `${…}` filled with a sample word. */
const renderedMessage = (node: ts.Expression): string | null => {
  const plain = literalText(node);
  if (plain !== null) return plain;
  if (ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((span) => `Sample${span.literal.text}`).join('');
  }
  return null;
};

const calleeName = (node: ts.Expression): string =>
  ts.isIdentifier(node) ? node.text : ts.isPropertyAccessExpression(node) ? node.name.text : '';

const usesIn = (file: string): Use[] => {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const uses: Use[] = [];
  const at = (node: ts.Node) =>
    `${path.relative(sourceRoot, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && calleeName(node.expression) === 'ApiError') {
      const [, code, message] = node.arguments ?? [];
      const inner =
        message && ts.isCallExpression(message) && calleeName(message.expression) === 'messageFor'
          ? literalText(message.arguments[0])
          : null;
      uses.push({ at: at(node), code: literalText(code), message, messageForCode: inner });
    } else if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      if (name === 'errorBody') {
        const [message, code] = node.arguments;
        uses.push({ at: at(node), code: literalText(code), message, messageForCode: null });
      }
    } else if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      codeLike.test(node.text) &&
      !ts.isImportDeclaration(node.parent) &&
      !ts.isExportDeclaration(node.parent)
    ) {
      // Any other `area:reason` text: a failure recorded or streamed (`{ code: 'provider:auth' }`,
      // `error_code`), or handed to a helper that builds the error.
      uses.push({ at: at(node), code: node.text, message: undefined, messageForCode: null });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
};

/** Where codes pass through as values: the ApiError class and the error handler themselves. */
const plumbing = new Set(['http/errors.ts']);

const uses = sourceFiles().flatMap(usesIn);
const known: ReadonlySet<string> = new Set(errorCodes);

describe("the server's error codes", () => {
  it('finds the places that answer with an error', () => {
    // A scan that matched nothing would pass every check below.
    expect(uses.filter((u) => u.code !== null).length).toBeGreaterThan(50);
  });

  it('names every code as written, so that it can be checked here', () => {
    const dynamic = uses
      .filter((u) => u.code === null && !plumbing.has(u.at.split(':')[0]!))
      .map((u) => u.at);
    expect(dynamic).toEqual([]);
  });

  it('uses only codes of the catalogue', () => {
    const unknown = uses
      .filter((u) => u.code !== null && !known.has(u.code))
      .map((u) => `${u.at} ${u.code}`);
    expect(unknown).toEqual([]);
  });

  it("words an ApiError with its own code's message", () => {
    const crossed = uses
      .filter((u) => u.messageForCode !== null && u.messageForCode !== u.code)
      .map((u) => `${u.at} ${u.code} with the words of ${u.messageForCode}`);
    expect(crossed).toEqual([]);
  });

  it('punctuates every message written in place as whole sentences', () => {
    const faults = uses.flatMap((u) => {
      const text = u.message && renderedMessage(u.message);
      if (!text) return [];
      const problems = sentenceProblems(text);
      return problems.length ? [`${u.at} ${JSON.stringify(text)} ${problems.join(', ')}`] : [];
    });
    expect(faults).toEqual([]);
  });
});
