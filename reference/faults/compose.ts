// Faults of §2.7 compose components and archives as published in the registry. Manifest faults edit the component
// manifest pulled by tag; archive faults serve a hostile archive in the layer's place, under its own digest
// (served.ts swapLayer), so each breaks one archive rule and never the digest rules; VER-COMPOSE-TAG-SEMVER is a
// registry decision (reference/registry/decisions.ts).
import { annotationsOf, editManifest, isComposeComponent, isComposeLayer, layersOf, swapLayer, type Json } from './served.ts';
import type { Rewrite } from './rewrite.ts';
import { tar, tarGz, type RawEntry } from './tar-writer.ts';
import type { ServiceFaultTable } from './types.ts';
import { SAMPLE_COMPOSE_YAML as COMPOSE_YAML } from '../../spec/compose-sample.ts';

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
  return editComponent((m) =>
    layersOf(m)
      .filter(isComposeLayer)
      .forEach((l) => change(annotationsOf(l), /vnd\.org\.([^.]+)\./.exec(String(l.mediaType))![1]!)),
  );
}

export const implementations: ServiceFaultTable = {
  // §2.7 compose component manifest
  'COMPOSE-ARTIFACTTYPE': { rewrite: () => editComponent((m) => void (m.artifactType = 'application/vnd.example.component+json')) },
  'COMPOSE-LAYER-MEDIATYPE': {
    rewrite: () =>
      editComponent((m) =>
        layersOf(m)
          .filter(isComposeLayer)
          .forEach((l) => (l.mediaType = 'application/vnd.oci.image.layer.v1.tar+gzip')),
      ),
  },
  'COMPOSE-ONE-LAYER': { rewrite: () => editComponent((m) => void (m.layers = [...layersOf(m), ...layersOf(m)])) },
  'COMPOSE-ANNOT-ON-LAYER': {
    rewrite: () =>
      editComponent((m) => {
        m.annotations = Object.assign({}, ...layersOf(m).map((l) => l.annotations));
        layersOf(m).forEach((l) => delete l.annotations);
      }),
  },
  'COMPOSE-ANNOT-TYPE': { rewrite: () => editAnnotations((a, v) => void (a[`org.${v}.component.type`] = 'helm')) },
  'COMPOSE-ANNOT-VERSION-SEMVER': { rewrite: () => editAnnotations((a, v) => void delete a[`org.${v}.component.version`]) },
  'COMPOSE-ANNOT-VERSION-SEMVER:leading-v': {
    rewrite: () => editAnnotations((a, v) => void (a[`org.${v}.component.version`] = `v${a[`org.${v}.component.version`]}`)),
  },
  'COMPOSE-ANNOT-VERSION-MATCHES-TAG': {
    rewrite: () =>
      editAnnotations(
        (a, v) =>
          void (a[`org.${v}.component.version`] = a['org.opencontainers.image.version'] = `${a[`org.${v}.component.version`]}-other`),
      ),
  },
  'COMPOSE-ANNOT-VERSION-MATCHES-REVISION': {
    rewrite: () => editAnnotations((a, v) => void (a[`org.${v}.component.version`] = a['org.opencontainers.image.version'] = '9.9.9')),
  },
  'COMPOSE-ANNOT-TITLE': { rewrite: () => editAnnotations((a) => void delete a['org.opencontainers.image.title']) },
  'COMPOSE-ANNOT-AUTHORS': { rewrite: () => editAnnotations((a) => void delete a['org.opencontainers.image.authors']) },
  'COMPOSE-ANNOT-DESCRIPTION': { rewrite: () => editAnnotations((a) => void delete a['org.opencontainers.image.description']) },
  'COMPOSE-ANNOT-OCI-VERSION': { rewrite: () => editAnnotations((a) => void delete a['org.opencontainers.image.version']) },
  'COMPOSE-ANNOT-OCI-VERSION-EQUAL': {
    rewrite: () => editAnnotations((a) => void (a['org.opencontainers.image.version'] = `${a['org.opencontainers.image.version']}-other`)),
  },
  'COMPOSE-NO-COMPOSE-PUBLISH': {
    rewrite: () =>
      editComponent((m) => {
        m.artifactType = 'application/vnd.docker.compose.project';
        layersOf(m).forEach((l) => (l.mediaType = 'application/vnd.docker.compose.file+yaml'));
      }),
  },
  'VER-COMPOSE-TAG-SEMVER': { registry: () => ({ tagsOnPush: (tag) => [tag, `v${tag}`] }) },
  // §2.7 compose archive, served in the layer's place
  'COMPOSE-GZIP-TAR': { rewrite: () => hostile((top) => tar(entries(top))) },
  'COMPOSE-ONE-TOP-DIR': {
    rewrite: () =>
      withEntries(() => [
        { name: 'extras/', type: 'directory' },
        { name: 'extras/readme.txt', type: 'file', content: 'x\n' },
      ]),
  },
  'COMPOSE-TOP-DIR-NAME': { rewrite: () => hostile(() => tarGz(entries('renamed-component'))) },
  'COMPOSE-FILE-NAME': {
    rewrite: () =>
      hostile((top) =>
        tarGz(entries(top).map((e) => (e.name.endsWith('/compose.yaml') ? { ...e, name: `${top}/docker-compose.yml` } : e))),
      ),
  },
  'COMPOSE-SPEC-CONFORMANT': {
    rewrite: () => hostile((top) => tarGz(entries(top, COMPOSE_YAML.replace('    image:', '    not_a_compose_key: true\n    image:')))),
  },
  'COMPOSE-REFS-INSIDE': {
    rewrite: () =>
      hostile((top) => tarGz(entries(top, COMPOSE_YAML.replace('      - ./env/web.env', '      - ./env/web.env\n      - ../shared.env')))),
  },
  'COMPOSE-ENV-FILE-IN-ARCHIVE': { rewrite: () => hostile((top) => tarGz(entries(top).filter((e) => !e.name.startsWith(`${top}/env/`)))) },
  'COMPOSE-CONFIG-FILE-IN-ARCHIVE': {
    rewrite: () => hostile((top) => tarGz(entries(top).filter((e) => !e.name.startsWith(`${top}/config/`)))),
  },
  'COMPOSE-NO-BIND-MOUNT-CONTENT': {
    rewrite: () =>
      hostile((top) =>
        tarGz([
          ...entries(
            top,
            COMPOSE_YAML.replace(
              '    configs:\n      - source',
              '    volumes:\n      - ./data:/var/lib/data\n    configs:\n      - source',
            ),
          ),
          { name: `${top}/data/`, type: 'directory' },
          { name: `${top}/data/seed.db`, type: 'file', content: 'rows\n' },
        ]),
      ),
  },
  'COMPOSE-NO-SECRET-FILES': {
    rewrite: () =>
      hostile((top) =>
        tarGz([
          ...entries(
            top,
            `${COMPOSE_YAML.replace('    configs:\n      - source', '    secrets:\n      - db_password\n    configs:\n      - source')}secrets:\n  db_password:\n    file: ./secrets/db_password.txt\n`,
          ),
          { name: `${top}/secrets/`, type: 'directory' },
          { name: `${top}/secrets/db_password.txt`, type: 'file', content: 'hunter2\n' },
        ]),
      ),
  },
  'COMPOSE-NO-SYMLINK-OUT': {
    rewrite: () => withEntries((top) => [{ name: `${top}/config/passwd`, type: 'symlink', linkname: '../../../etc/passwd' }]),
  },
  'COMPOSE-NO-HARDLINK-OUT': {
    rewrite: () => withEntries((top) => [{ name: `${top}/config/shadow`, type: 'link', linkname: 'etc/shadow' }]),
  },
  'COMPOSE-NO-ABS-PATH': {
    rewrite: () => withEntries(() => [{ name: '/etc/cron.d/wfmck', type: 'file', content: '* * * * * root true\n' }]),
  },
  'COMPOSE-NO-DOTDOT': { rewrite: () => withEntries((top) => [{ name: `${top}/../escape.txt`, type: 'file', content: 'x\n' }]) },
};
