/** `npm run bench`: every benchmark, one after the other, printed as Markdown. */
import { benchApi } from './api';
import { benchRequestPath } from './request-path';

async function main() {
  const sections: string[][] = [];
  sections.push(await benchApi());
  sections.push(await benchRequestPath());
  console.log(sections.map((lines) => lines.join('\n')).join('\n\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
