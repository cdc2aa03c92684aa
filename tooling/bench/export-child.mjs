// Runs one export in a fresh process and reports receipts/s and peak RSS, so the seeding
// done by the parent does not count. argv: DATABASE_URL TOKEN FORMAT
import { createCairn, openStore } from "@cairn/core";
import { createRestApp } from "@cairn/rest";

const [databaseUrl, token, format] = process.argv.slice(2);
const store = await openStore({ databaseUrl });
const app = createRestApp(createCairn(store, { publicUrl: "http://127.0.0.1:7373" }));
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const started = performance.now();
const res = await app.request(`/v1/export?format=${format}`, { headers: { authorization: `Bearer ${token}` } });
if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
let lines = 0;
let bytes = 0;
const decoder = new TextDecoder();
for await (const chunk of res.body) {
  bytes += chunk.byteLength;
  const text = decoder.decode(chunk, { stream: true });
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines++;
  peak = Math.max(peak, process.memoryUsage().rss);
}
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
await store.close();
console.log(
  JSON.stringify({ format, lines, bytes, seconds, perSecond: lines / seconds, peakRssMb: peak / 2 ** 20, maxRssMb: process.resourceUsage().maxRSS / 1024 }),
);
