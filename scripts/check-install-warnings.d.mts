// Types of scripts/check-install-warnings.mjs, for its test (test/install-warnings.spec.ts).
interface Manifest {
  engines?: { node?: string };
  allowScripts?: Record<string, boolean>;
}
interface Lock {
  packages?: Record<string, { version?: string; engines?: Record<string, string> | string[]; hasInstallScript?: boolean; link?: boolean }>;
}
export function installWarnings(log: string): string[];
export function rangeAdmits(range: string, version: string): boolean;
export function enginesBelowDeclaredNode(manifest: Manifest, lock: Lock): string[];
export function undecidedInstallScripts(manifest: Manifest, lock: Lock): string[];
