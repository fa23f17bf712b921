// The table of providers in "Keys and providers", written at build time from the catalogue the
// chat itself reads, so the article lists exactly the providers and models the app offers.
import type { ProviderEntry } from '@chorus/shared/providers';

export type StaticBlock = { html: string; text: string };

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

const columns = ['Provider', 'Default model', 'Other models'];

export const providersBlock = (list: ProviderEntry[]): StaticBlock => {
  const rows = list.map((provider) => {
    const byValue = (value: string) =>
      provider.models.find((m) => m.value === value)?.label ?? value;
    const others = provider.models.filter((m) => m.value !== provider.defaultModel);
    return [
      provider.name,
      byValue(provider.defaultModel),
      provider.dynamicModels
        ? 'Hundreds, listed live from OpenRouter'
        : provider.id === 'ollama'
          ? 'Those installed on its server'
          : others.map((m) => m.label).join(', '),
    ];
  });
  const head = columns.map((c) => `<th scope="col">${c}</th>`).join('');
  const body = rows
    .map(
      ([name, ...cells]) =>
        `<tr><th scope="row">${escapeHtml(name!)}</th>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`,
    )
    .join('');
  return {
    html: `<div class="help-table" role="region" tabindex="0" aria-label="Table: ${columns.join(', ')}"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`,
    text: list
      .map(
        (provider) =>
          `${provider.name}: ${provider.description} ${provider.models.map((m) => `${m.label} ${m.value}`).join(', ')}.`,
      )
      .join(' '),
  };
};
