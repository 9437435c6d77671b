// The compose.yaml of a component every §2.7 rule accepts (an env file and a config file, both in the archive): the
// one the kit's test archives (fixtures/archives) and the reference's archive faults (reference/faults/compose.ts)
// start from, so the two cannot drift. The faults edit it by string replacement: keep its lines as they are.
export const SAMPLE_COMPOSE_YAML = `services:
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
