// §2.7: compose.yaml MUST conform to the Compose Specification (spec/data/compose-spec.schema.json, draft-07).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { validateComposeSpec } from '../../spec/schemas/compose-spec.ts';
import { formatSchemaErrors } from '../../spec/schemas/index.ts';

function assertValid(doc: unknown) {
  const result = validateComposeSpec(doc);
  assert.ok(result.ok, result.ok ? '' : formatSchemaErrors(result.errors));
}

function assertInvalidAt(doc: unknown, path: string, message: string) {
  const result = validateComposeSpec(doc);
  assert.equal(result.ok, false);
  if (!result.ok)
    assert.ok(
      result.errors.some((e) => e.path === path && e.message === message),
      formatSchemaErrors(result.errors),
    );
}

test('a minimal compose file with one service validates', () => {
  assertValid({ services: { web: { image: 'nginx' } } });
});

test('a realistic compose.yaml with env_file, configs, secrets, volumes, healthcheck and x- keys validates', () => {
  assertValid(
    parse(
      `
name: digitron
x-common: &common
  restart: unless-stopped
services:
  orchestrator:
    <<: *common
    image: registry.example.com/northstar/digitron:1.2.0
    env_file: [config/orchestrator.env]
    ports: ["8080:80"]
    volumes: [/var/lib/digitron:/data]
    configs: [{ source: app, target: /etc/app.yaml }]
    secrets: [db_password]
    depends_on: { db: { condition: service_healthy } }
    deploy: { resources: { limits: { cpus: "0.5", memory: 256M } } }
  db:
    image: postgres:16
    healthcheck: { test: ["CMD", "pg_isready"], interval: 10s, retries: 5 }
configs:
  app: { file: ./config/app.yaml }
secrets:
  db_password: { environment: DB_PASSWORD }
volumes:
  data: {}
`,
      { merge: true },
    ),
  );
});

test('a service image that is not a string is rejected at its path', () => {
  assertInvalidAt({ services: { web: { image: 1 } } }, '/services/web/image', 'must be string');
});

test('an unknown top-level key is rejected: the schema closes the root to its own keys and x- extensions', () => {
  assertInvalidAt({ servicez: { web: { image: 'nginx' } } }, '/servicez', 'is not allowed');
  assertValid({ 'x-vendor': { anything: true }, services: { web: { image: 'nginx' } } });
});

test('an unknown service key is rejected', () => {
  assertInvalidAt({ services: { web: { image: 'nginx', imag: 'x' } } }, '/services/web/imag', 'is not allowed');
});

test('a service name outside the schema grammar is rejected', () => {
  assertInvalidAt({ services: { 'web app': { image: 'nginx' } } }, '/services/web app', 'is not allowed');
});

test('the schema itself leaves services optional: an empty document validates', () => {
  assertValid({});
});

test('a document that is not an object is rejected at the root', () => {
  assertInvalidAt(['services'], '/', 'must be object');
});
