import type { TestCell, TestTarget } from '@chorus/shared/api/test-runs';
import type { TestRunRow, TestRunsRepository } from '../db/repositories/test-runs.ts';
import { buildCells, compareCells, type MatrixResult } from './matrix.ts';
import { planOf } from './plan.ts';

export const targetsOf = (run: TestRunRow) => run.targets as TestTarget[];

/** A run's cells from its results (read when not given). */
export const cellsOf = async (
  repo: TestRunsRepository,
  run: TestRunRow,
  results?: MatrixResult[],
): Promise<TestCell[]> =>
  buildCells(
    planOf(run).cases,
    targetsOf(run).length,
    results ?? (await repo.resultsForMatrix(run.id)),
  );

/** The cells marked regressed, improved, same or new against another run of the set. */
export const cellsAgainst = async (
  repo: TestRunsRepository,
  run: TestRunRow,
  cells: TestCell[],
  other: TestRunRow,
): Promise<TestCell[]> =>
  compareCells(cells, targetsOf(run), {
    cells: await cellsOf(repo, other),
    targets: targetsOf(other),
  });
