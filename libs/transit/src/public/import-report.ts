/**
 * What a GTFS import found wrong with a feed (docs/adr/0019, "Messy feeds"):
 * per kind of problem, how many rows it hit, what was done about it, and a few
 * examples with their file and line. `fatal` problems stop the import (the
 * live dataset stays as it was); `skipped` ones dropped the rows or records
 * named; `warning`s changed nothing that routing depends on.
 */

export type ProblemSeverity = 'fatal' | 'skipped' | 'warning';

export interface ImportProblem {
  code: string;
  severity: ProblemSeverity;
  /** What the problem is and what the import did, in one sentence. */
  message: string;
  count: number;
  examples: string[];
}

const MAX_EXAMPLES = 5;

export class GtfsImportReport {
  private readonly problems = new Map<string, ImportProblem>();
  /** Rows read per file. */
  readonly files: Record<string, number> = {};

  add(code: string, severity: ProblemSeverity, message: string, example: string): void {
    let problem = this.problems.get(code);
    if (!problem) {
      problem = { code, severity, message, count: 0, examples: [] };
      this.problems.set(code, problem);
    }
    problem.count++;
    if (problem.examples.length < MAX_EXAMPLES) problem.examples.push(example);
  }

  get fatal(): boolean {
    return [...this.problems.values()].some((problem) => problem.severity === 'fatal');
  }

  list(): ImportProblem[] {
    const order: Record<ProblemSeverity, number> = { fatal: 0, skipped: 1, warning: 2 };
    return [...this.problems.values()].sort((a, b) => order[a.severity] - order[b.severity] || b.count - a.count || a.code.localeCompare(b.code));
  }

  count(code: string): number {
    return this.problems.get(code)?.count ?? 0;
  }

  toJSON(): { files: Record<string, number>; problems: ImportProblem[] } {
    return { files: this.files, problems: this.list() };
  }

  /** Lines for a terminal: one per problem with its count and first example. */
  summary(): string[] {
    return this.list().map((problem) => `${problem.severity.toUpperCase()} ${problem.code} ×${problem.count}: ${problem.message}${problem.examples[0] ? ` (e.g. ${problem.examples[0]})` : ''}`);
  }
}

/** A feed the import refused: nothing was written, the live dataset (if any) is unchanged. */
export class GtfsImportError extends Error {
  constructor(
    message: string,
    readonly report: GtfsImportReport,
  ) {
    super(message);
  }
}
