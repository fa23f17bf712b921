import { RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { Agent, AgentVersion } from '@chorus/shared/api/agents';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useAgentVersions, useRestoreAgentVersion } from '../api/agents';
import { modelLabel, plural } from './agent-labels';

type Saved = AgentVersion['agent'];

const fieldNames: [keyof Saved, string][] = [
  ['name', 'name'],
  ['avatar', 'avatar'],
  ['description', 'description'],
  ['instructions', 'instructions'],
  ['provider', 'provider'],
  ['model', 'model'],
  ['temperature', 'temperature'],
  ['max_steps', 'max steps'],
  ['tools', 'tools'],
  ['knowledge_base_ids', 'knowledge bases'],
];

/** The fields a saved state differs in from the agent as it is now. */
const changesFrom = (saved: Saved, current: Agent): string[] =>
  fieldNames
    .filter(([key]) => JSON.stringify(saved[key]) !== JSON.stringify(current[key]))
    .map(([, name]) => name);

const VersionRow = ({
  version,
  current,
  onRestore,
}: {
  version: AgentVersion;
  current: Agent;
  onRestore: () => void;
}) => {
  const isCurrent = version.version === current.version;
  const changes = changesFrom(version.agent, current);
  return (
    <li
      aria-label={`Version ${version.version}`}
      className="flex flex-wrap items-start gap-3 px-4 py-3"
    >
      <div className="grid min-w-0 flex-1 gap-0.5">
        <p className="text-sm font-medium">
          Version {version.version}
          {isCurrent ? (
            <span className="ml-2 rounded-full border px-2 py-0.5 text-xs text-muted-foreground">
              Current
            </span>
          ) : null}
        </p>
        <p className="text-xs text-muted-foreground">
          {formatDateTime(version.created_at)} · {version.agent.name} · {modelLabel(version.agent)}{' '}
          · {plural(version.agent.tools.length, 'tool', 'tools')}
        </p>
        {!isCurrent ? (
          <p className="text-xs text-muted-foreground">
            {changes.length === 0
              ? 'The same as the current version.'
              : `Differs from the current version in: ${changes.join(', ')}.`}
          </p>
        ) : null}
      </div>
      {!isCurrent ? (
        <Button variant="outline" size="sm" onClick={onRestore}>
          <RotateCcw aria-hidden="true" /> Restore
        </Button>
      ) : null}
    </li>
  );
};

const Versions = ({ agent, onClose }: { agent: Agent; onClose: () => void }) => {
  const versions = useAgentVersions(agent.id);
  const restore = useRestoreAgentVersion();
  const [restoring, setRestoring] = useState<AgentVersion | null>(null);

  let body;
  if (versions.isPending) body = <Spinner label="Loading versions" />;
  else if (versions.isError) {
    body = (
      <p role="alert" className="text-sm text-destructive">
        The history could not be loaded: {errorMessage(versions.error)} Close it and try again.
      </p>
    );
  } else if (versions.data.versions.length <= 1) {
    body = (
      <p className="text-sm text-muted-foreground">
        This agent has one version so far. Each time you save a change, the version before it is
        kept here to restore.
      </p>
    );
  } else {
    const sorted = [...versions.data.versions].sort((a, b) => b.version - a.version);
    body = (
      <ol aria-label="Versions" className="max-h-96 divide-y overflow-y-auto rounded-lg border">
        {sorted.map((version) => (
          <VersionRow
            key={version.version}
            version={version}
            current={agent}
            onRestore={() => setRestoring(version)}
          />
        ))}
      </ol>
    );
  }

  return (
    <div className="grid gap-4">
      {body}
      <div className="flex justify-end">
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      </div>
      <ConfirmDialog
        open={restoring !== null}
        title={`Restore version ${restoring?.version ?? ''}?`}
        confirmLabel="Restore this version"
        onConfirm={() => {
          const chosen = restoring;
          setRestoring(null);
          if (!chosen) return;
          restore.mutate(
            { id: agent.id, version: chosen.version },
            {
              onSuccess: (restored) => {
                toast.success(`Version ${chosen.version} restored as version ${restored.version}`);
                onClose();
              },
              onError: (error) =>
                toast.error('Could not restore the version', { description: errorMessage(error) }),
            },
          );
        }}
        onCancel={() => setRestoring(null)}
      >
        The agent goes back to its name, instructions, model, tools and knowledge bases as they were
        in version {restoring?.version}. Nothing is lost: that becomes a new version, and the
        current one stays in the history.
      </ConfirmDialog>
    </div>
  );
};

/** An agent's saved versions, newest first, each restorable. */
export const AgentHistoryDialog = ({
  agent,
  onClose,
}: {
  agent: Agent | null;
  onClose: () => void;
}) => (
  <Dialog
    open={agent !== null}
    title={agent ? `History of “${agent.name}”` : 'History'}
    onClose={onClose}
    className="max-w-2xl"
  >
    {agent ? <Versions key={agent.id} agent={agent} onClose={onClose} /> : null}
  </Dialog>
);
