/**
 * The documentation site builds from docs/ (VitePress, `deno task docs:site`) with no warning,
 * its search index finds what a newcomer looks for on a page that says it, and it reads in a real
 * browser (Debian's chromium through playwright-core): the home page and a guide render, every
 * sidebar link opens a page, search answers, a generated reference renders, and the pages are
 * readable at 390 px. Screenshots at desktop and phone widths are written to
 * `KIT_DOCS_SCREENSHOTS` (a temporary folder without it); the test asserts the pages' content,
 * not their pixels. The browser part is skipped without chromium (failed under CI).
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Locator, type Page } from "playwright-core";
import { apiPackages, buildSite, siteFolder } from "./docs_site.ts";
import { until } from "../test_support/until.ts";

const executablePath = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const ci = Deno.env.get("CI") === "true";
const noBrowser = !existsSync(executablePath);

const outDir = await Deno.makeTempDir({ prefix: "kit-docs-site-" });
globalThis.addEventListener("unload", () => Deno.removeSync(outDir, { recursive: true }));
const build = await buildSite(outDir);

/** The site path of every page of docs/ (docs/README.md, the table of contents, is `/`). */
async function docsPages(dir = ""): Promise<string[]> {
  const pages: string[] = [];
  const folder = join(siteFolder, "..", "..", "docs", dir);
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) pages.push(...await docsPages(join(dir, entry.name)));
    else if (entry.name === "README.md" && dir === "") pages.push("/");
    else if (entry.name.endsWith(".md")) pages.push(`/${join(dir, entry.name.slice(0, -3))}`);
  }
  return pages;
}

/** The page a site path is served from, as VitePress's clean URLs map it. */
function fileOf(pathname: string): string | undefined {
  const path = decodeURIComponent(pathname).replace(/^\/+/, "");
  if (path.includes("..")) return undefined;
  for (const candidate of [path, `${path}.html`, join(path, "index.html")]) {
    const file = join(outDir, candidate);
    if (candidate !== "" && existsSync(file) && !Deno.statSync(file).isDirectory) return file;
  }
  return undefined;
}

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

/** Serves the built site as a static host does (a missing page answers 404.html with 404). */
function serveSite(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const file = fileOf(
      new URL(request.url).pathname === "/" ? "/index.html" : new URL(request.url).pathname,
    );
    if (file === undefined) {
      return new Response(await Deno.readFile(join(outDir, "404.html")), {
        status: 404,
        headers: { "content-type": types[".html"]! },
      });
    }
    return new Response(await Deno.readFile(file), {
      headers: { "content-type": types[extname(file)] ?? "application/octet-stream" },
    });
  });
}

/** The text of the HTML section a search result points at: its heading to the next heading. */
async function sectionText(id: string): Promise<string> {
  const [path, anchor] = id.split("#") as [string, string];
  const file = fileOf(path === "/" ? "/index.html" : path);
  assert.ok(file !== undefined, `the search result ${id} names a page of the site`);
  const html = await readFile(file, "utf8");
  const start = html.indexOf(`id="${anchor}"`);
  assert.ok(start !== -1, `the page ${path} has the heading #${anchor}`);
  const rest = html.slice(start);
  const end = rest.slice(1).search(/<h[1-6][\s>]|<\/main>/);
  return rest.slice(0, end === -1 ? undefined : end + 1)
    .replace(/^[^>]*>/, "")
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

interface SearchResult {
  readonly id: string;
  readonly title: string;
  readonly score: number;
}

/** The built site's local search, loaded as VitePress's search box loads it. */
async function searchIndex(): Promise<{ search(query: string): SearchResult[] }> {
  const chunks = join(outDir, "assets", "chunks");
  const name = (await readdir(chunks)).find((file) => file.startsWith("@localSearchIndexroot."));
  assert.ok(name !== undefined, "the site has a local search index");
  const index = (await import(pathToFileURL(join(chunks, name)).href)).default as string;
  const minisearch = join(siteFolder, "node_modules", "minisearch", "dist", "es", "index.js");
  const { default: MiniSearch } = await import(pathToFileURL(minisearch).href);
  return MiniSearch.loadJSON(index, {
    fields: ["title", "titles", "text"],
    storeFields: ["title", "titles"],
    searchOptions: { fuzzy: 0.2, prefix: true, boost: { title: 4, text: 2, titles: 1 } },
  });
}

Deno.test("docs:site builds the site from docs/ with no warning", async () => {
  assert.deepEqual(build.warnings, [], build.output);
  for (const page of ["index.html", "guides/background-jobs.html", "reference/cli.html"]) {
    assert.ok((await stat(join(outDir, page))).size > 1000, `${page} is built`);
  }
  assert.ok(!existsSync(join(outDir, "README.html")), "docs/README.md is the home page");
});

Deno.test("each package's API pages are built from its code, and the reference page links them", async () => {
  const exported: Record<string, string> = {
    kernel: "defineModule",
    http: "Controller",
    jobs: "jobsPlugin",
    drizzle: "DrizzleJobStore",
    knex: "KnexJobStore",
  };
  assert.deepEqual([...apiPackages].sort(), Object.keys(exported).sort());
  const reference = await readFile(join(outDir, "reference", "api.html"), "utf8");
  for (const [folder, name] of Object.entries(exported)) {
    const symbols = await readFile(join(outDir, "api", folder, "all_symbols.html"), "utf8");
    assert.ok(says(symbols, name, true), `/api/${folder}/ names ${name}`);
    assert.ok(
      reference.includes(`href="/api/${folder}/all_symbols.html"`),
      `the reference page links /api/${folder}/`,
    );
  }
  const internal = await readFile(
    join(outDir, "api", "kernel", "internal.ts", "index.html"),
    "utf8",
  )
    .catch(() => "");
  assert.match(internal, /outside semver/, "an entry's page carries its module doc");
});

/** The built pages, as site paths (`/guides/tenancy.html`). */
async function builtPages(dir = ""): Promise<string[]> {
  const pages: string[] = [];
  for (const entry of await readdir(join(outDir, dir), { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== "assets") {
      pages.push(...await builtPages(join(dir, entry.name)));
    } else if (entry.name.endsWith(".html") && entry.name !== "404.html") {
      pages.push(`/${join(dir, entry.name)}`);
    }
  }
  return pages;
}

Deno.test("every link between the site's pages, and its #anchor, leads somewhere", async () => {
  const broken: string[] = [];
  let checked = 0;
  for (const page of await builtPages()) {
    const html = await readFile(join(outDir, page), "utf8");
    const content = html.slice(html.indexOf('class="vp-doc'));
    for (const [, href] of content.matchAll(/<a [^>]*href="([^"]+)"/g)) {
      const target = new URL(href!.replace(/&amp;/g, "&"), `http://site${page}`);
      if (target.host !== "site") continue;
      checked++;
      const file = fileOf(target.pathname === "/" ? "/index.html" : target.pathname);
      if (file === undefined) {
        broken.push(`${page}: ${href} (no such page)`);
        continue;
      }
      const anchor = decodeURIComponent(target.hash.slice(1));
      if (anchor !== "" && !(await readFile(file, "utf8")).includes(`id="${anchor}"`)) {
        broken.push(`${page}: ${href} (no such anchor)`);
      }
    }
  }
  assert.ok(checked > 200, `links checked: ${checked}`);
  assert.deepEqual(broken, []);
});

/**
 * Whether `text` says `term`: as a word (or a word's start: "enqueue" in "enqueued"), in any case,
 * or, with `exactCase`, as written (`PORT` the variable, not "port" the generator kind).
 */
function says(text: string, term: string, exactCase = false): boolean {
  const escaped = term.replace(/[-.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w-])${escaped}`, exactCase ? "" : "i").test(text);
}

Deno.test("the search index finds what a newcomer looks for, on a page that says it", async () => {
  const index = await searchIndex();
  for (const term of ["enqueue", "publish", "PORT", "worker", "miniflare", "x-tenant-id"]) {
    const results = index.search(term);
    assert.ok(results.length > 0, `'${term}' finds a page`);
    const top = results.slice(0, 3);
    const texts = await Promise.all(top.map((result) => sectionText(result.id)));
    // The search is case-insensitive: its first answer says the term in some case...
    assert.ok(
      says(texts[0]!, term),
      `the first result for '${term}' (${top[0]!.id}) says it: ${texts[0]!.slice(0, 300)}`,
    );
    // ...and most of its first three say it as written.
    const exact = top.filter((_, i) => says(texts[i]!, term, true)).map((result) => result.id);
    assert.ok(
      exact.length >= Math.min(2, top.length),
      `'${term}': of ${top.map((result) => result.id).join(", ")}, only ${exact.join(", ")} say it`,
    );
  }
});

/** The page's title, its heading's text without the anchor's zero-width space. */
async function titleOf(page: Page): Promise<string> {
  return (await page.locator(".VPContent h1").first().innerText()).replace(/\u200b/g, "").trim();
}

/** Whether an element lies within the page's viewport (a closed sidebar is moved out of it). */
async function onScreen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = locator.page().viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

/** Opens a page at `width`, collecting console errors; answers the page and its errors. */
async function open(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  base: string,
  path: string,
  width: number,
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: width < 500 ? 844 : 900 } });
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
  await page.goto(base + path);
  await page.locator(".VPContent h1").first().waitFor();
  return { page, problems };
}

Deno.test({
  name:
    "the site in chromium: home, a guide, the sidebar, search and a reference, at 1280 and 390 px",
  ignore: noBrowser && !ci,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const shots = Deno.env.get("KIT_DOCS_SCREENSHOTS") ??
      await Deno.makeTempDir({ prefix: "kit-docs-screenshots-" });
    const server = serveSite();
    const base = `http://127.0.0.1:${server.addr.port}`;
    const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
    const problems: string[] = [];
    try {
      // The home page: the table of contents, with the sidebar's sections.
      const home = await open(browser, base, "/", 1280);
      problems.push(...home.problems);
      assert.equal(
        await titleOf(home.page),
        "kit documentation",
      );
      const groups = await home.page.locator(".VPSidebar .VPSidebarItem.level-0 > .item h2")
        .allInnerTexts();
      for (
        const section of ["Getting started", "Guides", "Guarantees and operations", "Reference"]
      ) {
        assert.ok(groups.includes(section), `the sidebar has '${section}': ${groups.join(", ")}`);
      }
      await home.page.screenshot({ path: join(shots, "home-1280.png"), fullPage: true });

      // The sidebar links every page of docs/, and each link opens it (not the 404 page).
      const links: string[] = [];
      for (const anchor of await home.page.locator(".VPSidebar a.VPLink").all()) {
        links.push(await anchor.getAttribute("href") ?? "");
      }
      assert.deepEqual([...new Set(links)].sort(), (await docsPages()).sort());
      for (const link of links) {
        const response = await fetch(base + link);
        const html = await response.text();
        assert.equal(response.status, 200, `the sidebar's ${link} is a page`);
        assert.match(html, /<h1 id=/, `${link} has a title`);
      }

      // A guide, reached from the sidebar.
      await home.page.locator(".VPSidebar a.VPLink", { hasText: "Background jobs" }).first()
        .click();
      await home.page.waitForURL(`${base}/guides/background-jobs`);
      await until(async () => await titleOf(home.page) === "Background jobs", "the guide opens", {
        ms: 5_000,
      });
      assert.match(await home.page.locator(".vp-doc").innerText(), /this\.jobs\.enqueue\(/);
      await home.page.screenshot({ path: join(shots, "guide-1280.png"), fullPage: true });

      // Search: the box finds the page that says how a handler publishes an event.
      await home.page.locator("#local-search button").click();
      await home.page.locator(".VPLocalSearchBox input").fill("publish");
      const first = home.page.locator(".VPLocalSearchBox .results li").first();
      await first.waitFor();
      assert.match(await first.innerText(), /publish/i);
      await home.page.screenshot({ path: join(shots, "search-1280.png") });
      await home.page.keyboard.press("Enter");
      await home.page.locator(".VPLocalSearchBox").waitFor({ state: "detached" });
      await until(async () => await titleOf(home.page) !== "Background jobs", "the result opens", {
        ms: 5_000,
      });
      assert.match(await home.page.locator(".vp-doc").innerText(), /publishes/);

      // A generated reference renders its tables.
      await home.page.goto(`${base}/reference/error-codes`);
      const codes = await home.page.locator(".vp-doc table code").allInnerTexts();
      assert.ok(
        codes.includes("VALIDATION_FAILED") && codes.includes("JOB_NOT_FOUND"),
        codes.join(),
      );
      await home.page.close();

      // At 390 px: nothing wider than the screen, the sidebar behind the menu, links that work.
      const phone = await open(browser, base, "/guides/background-jobs", 390);
      problems.push(...phone.problems);
      const width = Number(await phone.page.evaluate("document.documentElement.scrollWidth"));
      assert.ok(width <= 390, `the guide is ${width} px wide at 390 px`);
      const tenancy = phone.page.locator(".VPSidebar a.VPLink", { hasText: "Tenancy" }).first();
      assert.equal(await onScreen(tenancy), false, "the sidebar is closed at 390 px");
      await phone.page.screenshot({ path: join(shots, "guide-390.png"), fullPage: true });
      await phone.page.locator(".VPLocalNav button.menu").click();
      await tenancy.waitFor({ state: "visible" });
      await until(() => onScreen(tenancy), "the menu opens the sidebar", { ms: 5_000 });
      await phone.page.screenshot({ path: join(shots, "sidebar-390.png") });
      await tenancy.click();
      await phone.page.waitForURL(`${base}/guides/tenancy`);
      await until(async () => await titleOf(phone.page) === "Tenancy", "the sidebar's link opens", {
        ms: 5_000,
      });
      assert.match(await phone.page.locator(".vp-doc").innerText(), /x-tenant-id/);
      await phone.page.goto(`${base}/`);
      await phone.page.locator(".VPContent h1").first().waitFor();
      const homeWidth = Number(await phone.page.evaluate("document.documentElement.scrollWidth"));
      assert.ok(homeWidth <= 390, `the home page is ${homeWidth} px wide at 390 px`);
      await phone.page.screenshot({ path: join(shots, "home-390.png"), fullPage: true });

      for (
        const shot of [
          "home-1280",
          "guide-1280",
          "search-1280",
          "guide-390",
          "sidebar-390",
          "home-390",
        ]
      ) {
        assert.ok((await stat(join(shots, `${shot}.png`))).size > 5_000, `${shot}.png is taken`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
      await server.shutdown();
    }
  },
});
