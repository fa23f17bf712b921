import { Link } from 'react-router';
import { builtinTools } from '@chorus/shared/api/tools';
import { PageHeader } from '@/components/ui/page-header';
import { HttpToolsSection } from './http-tools-section';
import { McpServersSection } from './mcp-servers-section';

const linkClass = 'text-primary underline underline-offset-4';

/**
 * Tools: the HTTP tools the user describes and the remote MCP servers they add, for their agents
 * to call. The built-in tools need nothing set up.
 */
export const ToolsPage = () => (
  <div>
    <PageHeader
      title="Tools"
      description={
        <>
          Functions an agent may call while it answers: your own endpoints, and the tools of MCP
          servers. Pick them, and choose when a call asks you first, in each{' '}
          <Link to="/agents" className={linkClass}>
            agent
          </Link>
          .
        </>
      }
    />
    <div className="grid gap-10">
      <HttpToolsSection />
      <McpServersSection />
      <section aria-labelledby="builtin-tools-heading" className="grid gap-2">
        <h2 id="builtin-tools-heading" className="text-xl font-semibold">
          Built-in tools
        </h2>
        <p className="text-sm text-muted-foreground">
          Every agent can use these; nothing to set up.
        </p>
        <ul className="grid gap-2 sm:grid-cols-2">
          {builtinTools.map((tool) => (
            <li key={tool.key} className="rounded-lg border p-3">
              <p className="text-sm font-medium">{tool.title}</p>
              <p className="text-xs text-muted-foreground">{tool.description}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  </div>
);
