/**
 * The documentation site's VitePress configuration: the pages are docs/ (`srcDir`), docs/README.md
 * (the table of contents) is the home page, the sidebar is that table of contents, section by
 * section, and search is VitePress's local search (an index built with the site, no service).
 * Anchors are made as GitHub makes them, so a link checked by tools/docs_tree_test.ts works on the
 * site too. A link out of docs/ (a package's README, cli/CHECKS.md) points at the repository when
 * `KIT_DOCS_REPOSITORY` names its web address (`https://github.com/<owner>/<name>`), else it is
 * written as the repository path it names, without a link.
 *
 * It imports nothing but Node's modules (not even VitePress's types), so that it loads from this
 * folder (tools/docs_site, whose node_modules `deno task docs:site` installs) while the pages stay
 * in docs/, and `deno check` reads it without VitePress.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** An item of VitePress's sidebar (the part of its `SidebarItem` used here). */
interface SidebarItem {
  text: string;
  link?: string;
  collapsed?: boolean;
  items?: SidebarItem[];
}

const here = dirname(fileURLToPath(import.meta.url));
const docs = resolve(here, "../../../docs");
const repositoryRoot = resolve(docs, "..");
const repository = process.env.KIT_DOCS_REPOSITORY?.replace(/\/+$/, "");

/** A heading's anchor as GitHub makes it (the docs' links are checked against these). */
function githubSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(
    / /g,
    "-",
  );
}

/** A page's link on the site: `guides/tenancy.md` → `/guides/tenancy`, README.md → `/`. */
function siteLink(page: string): string {
  const path = page.replace(/(^|\/)README\.md$/, "$1").replace(/\.md$/, "");
  return `/${path}`;
}

/**
 * The sidebar: one group per `## ` section of docs/README.md, one item per page its list items
 * link (the link's text), in the table of contents' order.
 */
function sidebarOfContents(): SidebarItem[] {
  const contents = readFileSync(join(docs, "README.md"), "utf8");
  const groups: SidebarItem[] = [{
    text: "Start",
    items: [{ text: "Table of contents", link: "/" }],
  }];
  let group: SidebarItem | undefined;
  for (const line of contents.split("\n")) {
    const section = /^## (.+)$/.exec(line)?.[1];
    if (section !== undefined) {
      group = { text: section, collapsed: false, items: [] };
      groups.push(group);
      continue;
    }
    if (group === undefined || !/^\s*- /.test(line) && !/^\s+\S/.test(line)) continue;
    for (const match of line.matchAll(/\[([^\]]+)\]\(([^)#\s]+\.md)(#[^)\s]*)?\)/g)) {
      const target = relative(docs, resolve(docs, match[2]!));
      if (target.startsWith("..")) continue;
      const link = siteLink(target);
      if (group.items!.some((item) => item.link === link)) continue;
      group.items!.push({ text: match[1]!.replace(/`/g, ""), link });
    }
  }
  return groups;
}

/** The first page of a section of the table of contents, for the top navigation. */
function firstOf(sidebar: SidebarItem[], section: string): string {
  const group = sidebar.find((item) => item.text === section);
  const link = group?.items?.[0]?.link;
  if (link === undefined) throw new Error(`docs/README.md has no section '${section}' with a page`);
  return link;
}

/**
 * Markdown-it rule: a relative link that leaves docs/ points at the repository (or, with no
 * repository address, becomes plain text naming the path), since the site holds only docs/.
 */
// deno-lint-ignore no-explicit-any
function linksOutOfDocs(md: any): void {
  // deno-lint-ignore no-explicit-any
  md.core.ruler.after("inline", "kit-links-out-of-docs", (state: any) => {
    const page: string | undefined = state.env?.realPath ?? state.env?.path;
    if (page === undefined) return;
    for (const token of state.tokens) {
      if (token.type !== "inline" || token.children === null) continue;
      // deno-lint-ignore no-explicit-any
      const children: any[] = token.children;
      for (let i = 0; i < children.length; i++) {
        const open = children[i];
        if (open.type !== "link_open") continue;
        const href: string = open.attrGet("href") ?? "";
        if (/^[a-z][a-z0-9+.-]*:|^#|^\//i.test(href)) continue;
        const [path, anchor] = href.split("#") as [string, string | undefined];
        const target = resolve(dirname(page), path);
        if (!relative(docs, target).startsWith("..")) continue;
        const inRepository = relative(repositoryRoot, target);
        if (repository !== undefined && !inRepository.startsWith("..") && existsSync(target)) {
          open.attrSet(
            "href",
            `${repository}/blob/main/${inRepository}${anchor ? `#${anchor}` : ""}`,
          );
          continue;
        }
        const close = children.findIndex((child, j) => j > i && child.type === "link_close");
        open.type = "html_inline";
        open.content = `<span class="repository-path" title="${inRepository} in the repository">`;
        children[close].type = "html_inline";
        children[close].content = "</span>";
      }
    }
  });
}

/**
 * Vite plugin: a bare import of a page in docs/ (`vue`, `vue/server-renderer`, which VitePress
 * adds to every page) resolves from this folder, where node_modules is, not from docs/.
 */
const importsFromSiteFolder = {
  name: "kit-imports-from-site-folder",
  enforce: "pre" as const,
  async resolveId(
    this: {
      resolve(id: string, importer: string, options: { skipSelf: boolean }): Promise<unknown>;
    },
    id: string,
    importer: string | undefined,
  ): Promise<unknown> {
    if (importer === undefined || !importer.startsWith(docs + "/")) return null;
    if (/^[./]|^\0|^[a-z]+:|^@theme|^@siteData/.test(id)) return null;
    return await this.resolve(id, join(here, "config.mts"), { skipSelf: true });
  },
};

const sidebar = sidebarOfContents();

/** The site's configuration, read by `vitepress build` and `vitepress dev`. */
const config = {
  title: "kit",
  description:
    "A TypeScript toolkit for layered, bounded-context applications: HTTP, jobs, events and a CLI",
  lang: "en",
  // No icon of its own: an empty one, so that browsers do not ask for /favicon.ico.
  head: [["link", { rel: "icon", href: "data:," }]],
  srcDir: docs,
  srcExclude: ["**/node_modules/**"],
  rewrites: { "README.md": "index.md" },
  cleanUrls: true,
  lastUpdated: false,
  markdown: {
    anchor: { slugify: githubSlug },
    config: linksOutOfDocs,
  },
  vite: { plugins: [importsFromSiteFolder] },
  themeConfig: {
    nav: [
      { text: "Getting started", link: firstOf(sidebar, "Getting started") },
      { text: "Guides", link: firstOf(sidebar, "Guides") },
      { text: "Operations", link: firstOf(sidebar, "Guarantees and operations") },
      { text: "Reference", link: firstOf(sidebar, "Reference") },
    ],
    sidebar,
    search: { provider: "local" },
    outline: { level: [2, 3] },
  },
};

export default config;
