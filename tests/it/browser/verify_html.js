// Drives a page of `urldb verify --format html` in Chromium as a reader
// would, and prints what it saw as JSON for tests/it/verify/html.rs to judge.
//
//   node verify_html.js run|history PAGE.html SCREENSHOT.png
//
// Needs playwright-core on NODE_PATH and Debian's chromium at
// /usr/bin/chromium. The flags keep Chromium from reaching the network on
// its own (this machine's network refuses it, and a test must not need it).
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { pathToFileURL } = require("url");
const { chromium } = require("playwright-core");

const [mode, pageFile, screenshot] = process.argv.slice(2);

async function rows(page) {
  return page.$$eval("#urls tbody tr", (trs) =>
    trs.map((tr) => {
      const td = tr.querySelectorAll("td");
      return {
        url: td[0].textContent,
        location: td[1].textContent,
        status: td[2].textContent,
        verdict: td[3].firstChild ? td[3].firstChild.textContent.trim() : "",
        reason: td[4].textContent,
      };
    }));
}

async function main() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "urldb-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1280, height: 900 },
  });
  const seen = { requests: [], errors: [], violations: [] };
  const url = pathToFileURL(pageFile).href;
  try {
    const page = await context.newPage();
    page.on("request", (r) => { if (r.url() !== url) seen.requests.push(r.url()); });
    page.on("pageerror", (e) => seen.errors.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error") seen.errors.push(m.text());
    });
    // Blocked loads and scripts show up as violation events.
    await page.addInitScript(() => {
      window.__violations = [];
      document.addEventListener("securitypolicyviolation",
        (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));
    });
    await page.goto(url);
    try {
      await page.waitForSelector("#urls tbody tr", { timeout: 10000 });
    } catch (e) {
      // Say why the table stayed empty (a blocked script, an error).
      const violations = await page.evaluate(() => window.__violations);
      throw new Error(`no table rows: ${e.message}\nerrors: ${JSON.stringify(seen.errors)}\n` +
        `policy violations: ${JSON.stringify(violations)}`);
    }
    seen.shown = await page.textContent("#shown");

    if (mode === "run") {
      seen.counts = {};
      for (const id of ["checked", "ok", "broken"]) {
        seen.counts[id] = await page.textContent(`#count-${id} .n`);
      }
      seen.initial = await rows(page);
      await page.screenshot({ path: screenshot, fullPage: true });

      await page.selectOption("#verdict", "broken");
      seen.broken = await rows(page);
      seen.broken_shown = await page.textContent("#shown");
      await page.selectOption("#verdict", "all");
      await page.fill("#search", "/down");
      seen.searched = await rows(page);
      await page.fill("#search", "");

      await page.click('th[data-key="status"] button');
      seen.by_status = await rows(page);
      seen.by_status_sort = await page.getAttribute('th[data-key="status"]', "aria-sort");
      await page.click('th[data-key="status"] button');
      seen.by_status_desc = await rows(page);
      await page.click('th[data-key="url"] button');
      seen.by_url = await rows(page);

      const all = await rows(page);
      const evilType = all.find((r) => r.url.endsWith("/evil-type"));
      seen.evil_reason = evilType ? evilType.reason : null;
      const evilUrl = all.find((r) => r.url.includes("<script>"));
      seen.evil_url = evilUrl ? evilUrl.url : null;
      seen.links = await page.$$eval("#urls a", (as) => as.map((a) => a.getAttribute("href")));
    } else {
      seen.bars = await page.locator("#chart rect.bar").count();
      seen.marks = await page.$$eval("#urls tbody tr", (trs) => trs.map((tr) =>
        Array.from(tr.querySelectorAll(".mark")).map((m) => m.className.replace("mark m-", ""))));
      seen.badges = await page.$$eval("#urls .badge", (bs) => bs.map((b) => b.textContent));
      const first = await rows(page);
      seen.file = first[0].location;
      await page.selectOption("#verdict", "flaky");
      seen.flaky = await rows(page);
      await page.screenshot({ path: screenshot, fullPage: true });
    }
    seen.pwned = await page.evaluate(() => window.pwned !== undefined);
    seen.scripts = await page.locator("script").count();
    seen.violations = await page.evaluate(() => window.__violations);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify(seen));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
