import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
};

export type MediaTypes = Record<string, { schema?: JsonSchema }>;

export type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
};

export type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { description?: string; required?: boolean; content?: MediaTypes };
  responses?: Record<string, { description?: string; content?: MediaTypes }>;
  deprecated?: boolean;
  security?: unknown[];
};

export const httpMethods = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
export type HttpMethod = (typeof httpMethods)[number];

export type PathItem = Partial<Record<HttpMethod, Operation>> & { parameters?: Parameter[] };

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths?: Record<string, PathItem>;
  components?: { schemas?: Record<string, JsonSchema> };
};

export const getOpenApiDocument = (signal?: AbortSignal) =>
  api.get<OpenApiDocument>('/rest/v1/openapi.json', signal);

export const openApiQueryOptions = () =>
  queryOptions({
    queryKey: ['openapi'],
    queryFn: ({ signal }) => getOpenApiDocument(signal),
    staleTime: 5 * 60_000,
  });

export const useOpenApiDocument = () => useQuery(openApiQueryOptions());
