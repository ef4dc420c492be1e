import { SHORT_LENGTH, summarizeUserAgent, userAgentCell } from '../../../shared/dashboard/user-agent';

describe('Function: summarizeUserAgent', () => {
  test.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36', 'Chrome 156 on Linux'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:140.0) Gecko/20100101 Firefox/140.0', 'Firefox 140 on macOS'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36 Edg/150.0.3240.50', 'Edge 150 on Windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/149.0.0.0 Safari/537.36 OPR/130.0.0.0', 'Opera 130 on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Safari/605.1.15', 'Safari 18 on macOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1', 'Safari 18 on iOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/156.0.7000.1 Mobile/15E148 Safari/604.1', 'Chrome 156 on iOS'],
    ['Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36', 'Chrome 156 on Android'],
    ['Mozilla/5.0 (X11; CrOS x86_64 16002.44.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36', 'Chrome 156 on ChromeOS'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36', 'Chrome 156 on Linux'],
  ])('a browser is its name and major version on its system: %s', (userAgent, summary) => {
    expect(summarizeUserAgent(userAgent)).toBe(summary);
  });

  test.each([
    ['curl/8.5.0', 'curl 8.5'],
    ['node', 'node'],
    ['python-requests/2.32.3', 'python-requests 2.32'],
    ['Go-http-client/2.0', 'Go-http-client 2.0'],
    ['PostmanRuntime/7', 'PostmanRuntime 7'],
  ])('a tool is its product name and version, an unknown short agent as given: %s', (userAgent, summary) => {
    expect(summarizeUserAgent(userAgent)).toBe(summary);
  });

  test('an unknown long agent is cut to SHORT_LENGTH characters with an ellipsis', () => {
    const agent = 'Mozilla/5.0 (compatible; SomeCrawler; +https://crawler.example/about-this-robot)';
    const summary = summarizeUserAgent(agent);
    expect(summary).toHaveLength(SHORT_LENGTH);
    expect(summary.endsWith('…')).toBe(true);
    expect(agent.startsWith(summary.slice(0, -1))).toBe(true);
  });
});

describe('Function: userAgentCell', () => {
  test('the summary and the whole agent in a disclosure, both escaped; an agent shown whole as it is; none a dash', () => {
    const agent = 'curl/8.5.0 <script>alert("x")</script>';
    expect(userAgentCell(agent)).toBe('<details class="agent"><summary>curl 8.5</summary><code class="wraps">curl/8.5.0 &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</code></details>');
    expect(userAgentCell('<b>')).toBe('&lt;b&gt;');
    expect(userAgentCell(null)).toBe('—');
  });
});
