// `wfmck lint` of an application package folder: what `wfmck publish app` WOULD push (§2.7), judged before pushing.
import { mediaTypes } from '../media-types.ts';
import { hasDotDot, isAbsolutePath, segmentsOf } from '../rules/compose-archive.ts';
import { finding } from '../rules/finding.ts';
import { descriptionFindings, listedResources } from './description.ts';
import { located } from './findings.ts';
import { LintInputError, type LintResult } from './input.ts';
import { knownFormat } from './resource-formats.ts';

export interface PackageFolder {
  /** Every regular file, as a POSIX path relative to the folder. */
  paths: readonly string[];
  /** The text of each top-level `.yaml`/`.yml` file (the candidates for the application description). */
  yamlTexts: ReadonlyMap<string, string>;
  /** The description named by the user (`--description`); else the folder's only top-level YAML file. */
  description?: string;
}

export function lintPackageFolder(folder: PackageFolder, vendor: string): LintResult {
  const path = descriptionPath(folder);
  if (path === undefined) {
    return {
      kind: 'package-folder',
      findings: [
        finding(
          'description-present',
          '§2.7: no application description (a top-level .yaml file) in the folder; a package has exactly one',
        ),
      ],
      notes: [],
    };
  }
  const { findings, doc } = descriptionFindings(folder.yamlTexts.get(path)!);
  const out = located(findings, path);
  const notes: string[] = [];
  if (!doc) return { kind: 'package-folder', findings: out, notes };
  const files = new Set(folder.paths);
  const mt = mediaTypes(vendor);
  const layers = [`description ${path} (${mt.appDescription})`];
  for (const [kind, ref] of listedResources(doc)) {
    const at = `/metadata/catalog/application/${kind}`;
    const problem = resourceProblem(ref, files);
    if (problem) {
      out.push(...located([finding(problem.rule, `§2.7: ${kind} ${problem.message}`, at)], path));
      continue;
    }
    const format = knownFormat(kind, ref);
    if (!format.ok) out.push(...located([finding('resource-format', `§2.7: ${kind} ${format.reason}`, at)], path));
    else layers.push(`${kind} ${ref} (${mt.resource(kind, format.format)})`);
  }
  notes.push(
    `package ${doc.metadata.name} ${doc.metadata.version}: would be tagged ${doc.metadata.version} with layers ${layers.join(', ')}`,
  );
  return { kind: 'package-folder', findings: out, notes };
}

function descriptionPath(folder: PackageFolder): string | undefined {
  if (folder.description !== undefined) {
    if (!folder.yamlTexts.has(folder.description))
      throw new LintInputError(`--description ${folder.description}: no such YAML file in the folder`);
    return folder.description;
  }
  const candidates = [...folder.yamlTexts.keys()].filter((p) => !p.includes('/')).sort();
  if (candidates.length > 1)
    throw new LintInputError(
      `the folder has several top-level YAML files (${candidates.join(', ')}); name the application description with --description`,
      'WFMCK_E_USAGE',
    );
  return candidates[0];
}

/** A listed resource path must be relative, stay in the folder and name a file there. */
function resourceProblem(ref: string, files: ReadonlySet<string>): { rule: string; message: string } | undefined {
  if (isAbsolutePath(ref) || hasDotDot(ref))
    return {
      rule: 'resource-path',
      message: `${JSON.stringify(ref)} must be a relative path inside the package (no absolute path, no ..)`,
    };
  const path = segmentsOf(ref.replace(/\\/g, '/')).join('/');
  if (!files.has(path)) return { rule: 'resource-exists', message: `${ref} is listed but no such file is in the folder` };
  return undefined;
}
