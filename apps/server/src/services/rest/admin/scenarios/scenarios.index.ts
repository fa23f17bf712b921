import { curationRouter } from '../prompts/curation.index.ts';

/** `/admin/scenarios`: the scenarios cookbook, curated like the prompt library. */
export const adminScenariosRouter = curationRouter('scenarios');
