/** Project-OSRM's instruction compiler ships no types: the part the navigation feed test uses. */
declare module 'osrm-text-instructions' {
  interface Compiler {
    compile(language: string, step: unknown, options?: { legCount?: number; legIndex?: number }): string;
  }
  export default function osrmTextInstructions(version: 'v5'): Compiler;
}
