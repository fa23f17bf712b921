import { shortcuts } from '@/lib/shortcuts';

/** The chat's keyboard shortcuts, from the list the handlers read their keys from. */
export const ShortcutsTable = ({ caption }: { caption: string }) => (
  <table className="w-full max-w-xl text-sm">
    <caption className="sr-only">{caption}</caption>
    <thead className="text-left text-muted-foreground">
      <tr>
        <th scope="col" className="py-1.5 pr-4 font-medium">
          Keys
        </th>
        <th scope="col" className="py-1.5 font-medium">
          What they do
        </th>
      </tr>
    </thead>
    <tbody className="divide-y">
      {shortcuts.map((shortcut) => (
        <tr key={shortcut.id}>
          <td className="py-1.5 pr-4 whitespace-nowrap">
            <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">
              {shortcut.keys()}
            </kbd>
          </td>
          <td className="py-1.5">{shortcut.action}</td>
        </tr>
      ))}
    </tbody>
  </table>
);
