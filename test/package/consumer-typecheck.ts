/**
 * Type-checks a consumer project's files in this process with the TypeScript API, as `tsc -p` would, for the
 * package checks' several module resolutions. Two things make it cheaper than a `tsc` process per resolution:
 * - the declaration files TypeScript and @types/node ship are parsed once and shared by every program of a
 *   `SourceFileCache` (as the language service's document registry shares them between projects), keyed by what
 *   parsing depends on: the file, the target and the module format the file is read in;
 * - the project's `skipLibCheck: false` is honoured for the package's own .d.ts files, but only they and the
 *   consumer's files are asked for their semantic diagnostics: checking @types/node's declarations (60 % of a
 *   run's check time) says nothing about zkwire. Option, global and syntax problems are reported for every file.
 */

import path from 'node:path';
import ts from 'typescript';

/** Parsed source files shared by the programs that use the same cache. */
export type SourceFileCache = Map<string, ts.SourceFile>;

/**
 * Whether a file is this machine's toolchain (TypeScript's lib files, @types/node and what it pulls in), not the
 * consumer's or the package's: shared between programs, and type-checked only as far as the checked files use it.
 */
function isToolchainFile(fileName: string): boolean {
  return /[\\/]node_modules[\\/]/.test(fileName) && !/[\\/]node_modules[\\/]zkwire[\\/]/.test(fileName);
}

/**
 * The diagnostics of the project `dir/tsconfig.json`, as `tsc -p dir` prints them (but for @types/node's and
 * TypeScript's own declarations, see above); '' when there are none.
 */
export function typeCheckProject(dir: string, cache: SourceFileCache): string {
  const configProblems: ts.Diagnostic[] = [];
  const config = ts.getParsedCommandLineOfConfigFile(path.join(dir, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => void configProblems.push(d),
  });
  const format = (diagnostics: readonly ts.Diagnostic[]): string =>
    ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' });
  if (config === undefined) return format(configProblems);
  const options = config.options;
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    // Only files that cannot change between programs are shared: the consumer's own are read fresh each time.
    if (!isToolchainFile(fileName)) return read(fileName, languageVersionOrOptions, onError, shouldCreate);
    const o = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    const key = `${fileName}\0${o.languageVersion}\0${String(o.impliedNodeFormat)}`;
    let file = cache.get(key);
    if (file === undefined) {
      file = read(fileName, languageVersionOrOptions, onError, shouldCreate);
      if (file !== undefined) cache.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options, host, configFileParsingDiagnostics: config.errors });
  const diagnostics: ts.Diagnostic[] = [...program.getConfigFileParsingDiagnostics(), ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const file of program.getSourceFiles()) {
    diagnostics.push(...program.getSyntacticDiagnostics(file));
    if (!isToolchainFile(file.fileName)) diagnostics.push(...program.getSemanticDiagnostics(file));
  }
  return format(diagnostics);
}
