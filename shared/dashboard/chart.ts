import type { CurrencyVolume, PaidVolume } from '../domain/dashboard';
import { escapeHtml } from '../http/page';
import { money } from './html';

/**
 * The paid-volume chart: one bar per day, drawn on the server as inline SVG (no script, no
 * external asset: the dashboard's Content-Security-Policy needs nothing more). The SVG holds
 * only shapes, stretched to the width of the page; its text (scale, dates) is HTML beside it, so
 * it stays legible on a phone. Each bar's `<title>` names its day, and the daily figures follow
 * as a table for screen readers and for copying.
 */

const WIDTH = 300;
const HEIGHT = 100;

function bars(volume: CurrencyVolume, peak: number): string {
  const slot = WIDTH / volume.days.length;
  return volume.days
    .map((day, index) => {
      const height = peak === 0 ? 0 : Math.max(day.minor > 0 ? 1.5 : 0, (day.minor / peak) * (HEIGHT - 6));
      const x = (index * slot + slot * 0.15).toFixed(2);
      const label = `${day.date}: ${money(day.minor, volume.currency)} (${day.count} payment${day.count === 1 ? '' : 's'})`;
      return `<rect x="${x}" y="${(HEIGHT - height).toFixed(2)}" width="${(slot * 0.7).toFixed(2)}" height="${height.toFixed(2)}" fill="#1d4ed8" data-date="${day.date}"><title>${label}</title></rect>`;
    })
    .join('');
}

function currencyChart(volume: CurrencyVolume, id: string): string {
  const peak = Math.max(...volume.days.map((day) => day.minor));
  const title = `Paid volume per day in ${volume.currency}, ${volume.days[0].date} to ${volume.days.at(-1)!.date}`;
  return `<figure class="chart" aria-labelledby="${id}-title">
<p class="total" id="${id}-title"><span><strong>${money(volume.totalMinor, volume.currency)}</strong> paid in ${volume.count} payment${volume.count === 1 ? '' : 's'}</span> · <span>peak day ${money(peak, volume.currency)}</span></p>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(title)}">
<line x1="0" y1="${HEIGHT - 0.5}" x2="${WIDTH}" y2="${HEIGHT - 0.5}" stroke="#94a3b8" stroke-width="1" vector-effect="non-scaling-stroke"/>
${bars(volume, peak)}
</svg>
<div class="axis"><time datetime="${volume.days[0].date}">${volume.days[0].date}</time><time datetime="${volume.days.at(-1)!.date}">${volume.days.at(-1)!.date}</time></div>
<details><summary>Daily figures (${escapeHtml(volume.currency)})</summary>
<table>
<caption>${escapeHtml(title)}</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Paid</th><th scope="col">Payments</th></tr></thead>
<tbody>
${volume.days
  .map((day) => `<tr data-date="${day.date}"><th scope="row"><time datetime="${day.date}">${day.date}</time></th><td class="num">${money(day.minor, volume.currency)}</td><td class="num">${day.count}</td></tr>`)
  .join('\n')}
</tbody>
</table>
</details>
</figure>`;
}

/** The chart of each currency paid in the window, or the empty state. */
export function paidVolumeChart(volume: PaidVolume): string {
  const partial = volume.completeFrom
    ? `<p class="note">Only the most recent paid payments were read: days before ${escapeHtml(volume.completeFrom)} may show less than was paid.</p>`
    : '';
  if (volume.currencies.length === 0) return `<p class="note">No payments were paid from ${escapeHtml(volume.from)} to ${escapeHtml(volume.to)}.</p>`;
  return `${partial}${volume.currencies.map((currency, index) => currencyChart(currency, `chart-${index}`)).join('\n')}`;
}
