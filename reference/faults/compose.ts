// Faults of §2.7 compose components and archives as published in the registry. Manifest faults edit the component
// manifest pulled by tag; archive faults serve a hostile archive in the layer's place, under its own digest
// (served.ts swapLayer), so each breaks one archive rule and never the digest rules.
import { annotationsOf, editManifest, isComposeComponent, isComposeLayer, layersOf, swapLayer, type Json, type Rewrite } from './served.ts';
import { tar, tarGz, type RawEntry } from './tar-writer.ts';
import type { FaultDefinition } from './types.ts';

const COMPOSE_YAML = `services:
  web:
    image: nginx:1.27-alpine
    env_file:
      - ./env/web.env
    configs:
      - source: site
        target: /etc/nginx/conf.d/default.conf
configs:
  site:
    file: ./config/site.conf
`;

/** A component archive every §2.7 rule accepts, under `top`; `change` makes it break one rule. */
function entries(top: string, compose = COMPOSE_YAML): RawEntry[] {
  return [
    { name: `${top}/`, type: 'directory' },
    { name: `${top}/compose.yaml`, type: 'file', content: compose },
    { name: `${top}/config/`, type: 'directory' },
    { name: `${top}/config/site.conf`, type: 'file', content: 'server { listen 80; }\n' },
    { name: `${top}/env/`, type: 'directory' },
    { name: `${top}/env/web.env`, type: 'file', content: 'GREETING=hello\n' },
  ];
}

/** The top-level directory: the component name the layer's title annotation gives. */
const topOf = (layer: Json): string => annotationsOf(layer)['org.opencontainers.image.title'] ?? 'component';

/** Serves `archive(top)` in place of the compose archive layer. */
function hostile(archive: (top: string) => Buffer): Rewrite {
  return swapLayer(isComposeComponent, isComposeLayer, (layer) => archive(topOf(layer)));
}

const withEntries = (more: (top: string) => RawEntry[]) => hostile((top) => tarGz([...entries(top), ...more(top)]));
const editComponent = (change: (m: Json) => boolean | void): Rewrite => editManifest(isComposeComponent, change);

/** Edits the annotations of the archive layer; `vendor` is read from the layer media type (P1). */
function editAnnotations(change: (a: Record<string, string>, vendor: string) => void): Rewrite {
  return editComponent((m) => layersOf(m).filter(isComposeLayer).forEach((l) => change(annotationsOf(l), /vnd\.org\.([^.]+)\./.exec(String(l.mediaType))![1]!)));
}

const composeFault = (id: string, description: string, rewrite: Rewrite, breaks: string[] = [id.split(':')[0]!]): FaultDefinition => ({ id, service: 'registry', breaks, description, rewrite });

export const faults: FaultDefinition[] = [
  // §2.7 compose component manifest
  composeFault('COMPOSE-ARTIFACTTYPE', 'serves the component manifest with a wrong artifactType', editComponent((m) => void (m.artifactType = 'application/vnd.example.component+json'))),
  composeFault('COMPOSE-LAYER-MEDIATYPE', 'serves the archive layer as a plain OCI image layer (application/vnd.oci.image.layer.v1.tar+gzip)',
    editComponent((m) => layersOf(m).filter(isComposeLayer).forEach((l) => (l.mediaType = 'application/vnd.oci.image.layer.v1.tar+gzip')))),
  composeFault('COMPOSE-ONE-LAYER', 'serves the component manifest with two layers (the archive twice)', editComponent((m) => void (m.layers = [...layersOf(m), ...layersOf(m)]))),
  composeFault('COMPOSE-ANNOT-ON-LAYER', 'moves the component annotations from the layer descriptor to the manifest', editComponent((m) => {
    m.annotations = Object.assign({}, ...layersOf(m).map((l) => l.annotations));
    layersOf(m).forEach((l) => delete l.annotations);
  }), ['COMPOSE-ANNOT-ON-LAYER', 'COMPOSE-ANNOT-TYPE']),
  composeFault('COMPOSE-ANNOT-TYPE', 'annotates the archive layer with component.type helm', editAnnotations((a, v) => void (a[`org.${v}.component.type`] = 'helm'))),
  composeFault('COMPOSE-ANNOT-VERSION-SEMVER', 'leaves org.<vendor>.component.version out of the layer annotations', editAnnotations((a, v) => void delete a[`org.${v}.component.version`])),
  composeFault('COMPOSE-ANNOT-VERSION-SEMVER:leading-v', 'writes org.<vendor>.component.version with a leading v', editAnnotations((a, v) => void (a[`org.${v}.component.version`] = `v${a[`org.${v}.component.version`]}`))),
  composeFault('COMPOSE-ANNOT-VERSION-MATCHES-TAG', 'annotates a component version that is not its tag (both version annotations say <tag>-other)',
    editAnnotations((a, v) => void (a[`org.${v}.component.version`] = a['org.opencontainers.image.version'] = `${a[`org.${v}.component.version`]}-other`))),
  composeFault('COMPOSE-ANNOT-VERSION-MATCHES-REVISION', 'annotates a component version other than the revision the package references (9.9.9)',
    editAnnotations((a, v) => void (a[`org.${v}.component.version`] = a['org.opencontainers.image.version'] = '9.9.9'))),
  composeFault('COMPOSE-ANNOT-TITLE', 'leaves org.opencontainers.image.title out (a SHOULD: fails in strict strictness)', editAnnotations((a) => void delete a['org.opencontainers.image.title'])),
  composeFault('COMPOSE-ANNOT-AUTHORS', 'leaves org.opencontainers.image.authors out (a SHOULD: fails in strict strictness)', editAnnotations((a) => void delete a['org.opencontainers.image.authors'])),
  composeFault('COMPOSE-ANNOT-DESCRIPTION', 'leaves org.opencontainers.image.description out (a SHOULD: fails in strict strictness)', editAnnotations((a) => void delete a['org.opencontainers.image.description'])),
  composeFault('COMPOSE-ANNOT-OCI-VERSION', 'leaves org.opencontainers.image.version out (a SHOULD: fails in strict strictness)', editAnnotations((a) => void delete a['org.opencontainers.image.version'])),
  composeFault('COMPOSE-ANNOT-OCI-VERSION-EQUAL', 'sets org.opencontainers.image.version to another version than component.version',
    editAnnotations((a) => void (a['org.opencontainers.image.version'] = `${a['org.opencontainers.image.version']}-other`))),
  composeFault('COMPOSE-NO-COMPOSE-PUBLISH', 'serves the component as the compose-publish artifact (its artifactType and a compose file layer)', editComponent((m) => {
    m.artifactType = 'application/vnd.docker.compose.project';
    layersOf(m).forEach((l) => (l.mediaType = 'application/vnd.docker.compose.file+yaml'));
  }), ['COMPOSE-NO-COMPOSE-PUBLISH', 'COMPOSE-ARTIFACTTYPE']),
  {
    id: 'VER-COMPOSE-TAG-SEMVER', service: 'registry', breaks: ['VER-COMPOSE-TAG-SEMVER'],
    description: 'also tags every pushed manifest v<tag>, a tag with a leading v',
    registry: { tagsOnPush: (tag) => [tag, `v${tag}`] },
  },
  // §2.7 compose archive, served in the layer's place
  composeFault('COMPOSE-GZIP-TAR', 'serves the archive as an uncompressed tar', hostile((top) => tar(entries(top)))),
  composeFault('COMPOSE-ONE-TOP-DIR', 'serves an archive with two top-level directories', withEntries(() => [{ name: 'extras/', type: 'directory' }, { name: 'extras/readme.txt', type: 'file', content: 'x\n' }])),
  composeFault('COMPOSE-TOP-DIR-NAME', 'serves an archive whose top-level directory is not named after the component (a SHOULD)', hostile(() => tarGz(entries('renamed-component')))),
  composeFault('COMPOSE-FILE-NAME', 'serves an archive whose compose file is docker-compose.yml instead of compose.yaml',
    hostile((top) => tarGz(entries(top).map((e) => (e.name.endsWith('/compose.yaml') ? { ...e, name: `${top}/docker-compose.yml` } : e))))),
  composeFault('COMPOSE-SPEC-CONFORMANT', 'serves a compose.yaml with a key the Compose Specification does not define',
    hostile((top) => tarGz(entries(top, COMPOSE_YAML.replace('    image:', '    not_a_compose_key: true\n    image:'))))),
  composeFault('COMPOSE-REFS-INSIDE', 'serves a compose.yaml whose env_file climbs out of the top-level directory (../shared.env)',
    hostile((top) => tarGz(entries(top, COMPOSE_YAML.replace('      - ./env/web.env', '      - ./env/web.env\n      - ../shared.env'))))),
  composeFault('COMPOSE-ENV-FILE-IN-ARCHIVE', 'serves an archive without the env_file compose.yaml names',
    hostile((top) => tarGz(entries(top).filter((e) => !e.name.startsWith(`${top}/env/`))))),
  composeFault('COMPOSE-CONFIG-FILE-IN-ARCHIVE', 'serves an archive without the file of a file-source config',
    hostile((top) => tarGz(entries(top).filter((e) => !e.name.startsWith(`${top}/config/`))))),
  composeFault('COMPOSE-NO-BIND-MOUNT-CONTENT', 'serves an archive that packs the content of a bind mount (./data)',
    hostile((top) => tarGz([...entries(top, COMPOSE_YAML.replace('    configs:\n      - source', '    volumes:\n      - ./data:/var/lib/data\n    configs:\n      - source')),
      { name: `${top}/data/`, type: 'directory' }, { name: `${top}/data/seed.db`, type: 'file', content: 'rows\n' }]))),
  composeFault('COMPOSE-NO-SECRET-FILES', 'serves an archive that packs the file of a file-source secret',
    hostile((top) => tarGz([...entries(top, `${COMPOSE_YAML.replace('    configs:\n      - source', '    secrets:\n      - db_password\n    configs:\n      - source')}secrets:\n  db_password:\n    file: ./secrets/db_password.txt\n`),
      { name: `${top}/secrets/`, type: 'directory' }, { name: `${top}/secrets/db_password.txt`, type: 'file', content: 'hunter2\n' }]))),
  composeFault('COMPOSE-NO-SYMLINK-OUT', 'serves an archive with a symlink out of the top-level directory (../../../etc/passwd)',
    withEntries((top) => [{ name: `${top}/config/passwd`, type: 'symlink', linkname: '../../../etc/passwd' }])),
  composeFault('COMPOSE-NO-HARDLINK-OUT', 'serves an archive with a hard link to a path outside the top-level directory (etc/shadow)',
    withEntries((top) => [{ name: `${top}/config/shadow`, type: 'link', linkname: 'etc/shadow' }])),
  composeFault('COMPOSE-NO-ABS-PATH', 'serves an archive with an absolute entry (/etc/cron.d/wfmck)', withEntries(() => [{ name: '/etc/cron.d/wfmck', type: 'file', content: '* * * * * root true\n' }])),
  composeFault('COMPOSE-NO-DOTDOT', 'serves an archive with an entry that climbs out (<top>/../escape.txt)', withEntries((top) => [{ name: `${top}/../escape.txt`, type: 'file', content: 'x\n' }])),
];
