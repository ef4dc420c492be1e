/** `npm run bench`: every benchmark, one after the other, printed as Markdown. */
import { benchApi } from './api';
import { runWhenMain } from './script';
import { benchRequestPath } from './request-path';

async function main() {
  const sections: string[][] = [];
  sections.push(await benchApi());
  sections.push(await benchRequestPath());
  console.log(sections.map((lines) => lines.join('\n')).join('\n\n'));
}

runWhenMain(module, main);
