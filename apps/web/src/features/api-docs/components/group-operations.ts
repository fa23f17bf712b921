import {
  httpMethods,
  type HttpMethod,
  type OpenApiDocument,
  type Operation,
  type Parameter,
} from '../api/get-openapi';

export type OperationEntry = {
  method: HttpMethod;
  path: string;
  operation: Operation;
  parameters: Parameter[];
};

export type TagGroup = {
  name: string;
  description: string | undefined;
  operations: OperationEntry[];
};

const untagged = 'Other';

/** Groups every operation by its first tag, in the document's tag order, then by path. */
export const groupOperationsByTag = (doc: OpenApiDocument): TagGroup[] => {
  const groups = new Map<string, TagGroup>();
  for (const tag of doc.tags ?? []) {
    groups.set(tag.name, { name: tag.name, description: tag.description, operations: [] });
  }
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of httpMethods) {
      const operation = item[method];
      if (!operation) continue;
      const name = operation.tags?.[0] ?? untagged;
      let group = groups.get(name);
      if (!group) {
        group = { name, description: undefined, operations: [] };
        groups.set(name, group);
      }
      group.operations.push({
        method,
        path,
        operation,
        parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])],
      });
    }
  }
  return [...groups.values()].filter((group) => group.operations.length > 0);
};
