// What the browser tests share: where the built page, the CLI and Chromium are, and Chromium
// started as this machine allows (no sandbox as root, no background networking: the network is
// closed, and fonts rendered without hinting, so screenshots compare across runs).
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { repo, target } from "./corpus.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
export const page_url = pathToFileURL(join(here, "..", "dist", "index.html")).href;
export const pvlint = process.env.PVLINT_BIN || join(target, "debug", "pvlint");
export const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
export const shots = process.env.PVLINT_SCREENSHOTS || join(repo, "target", "playground-screenshots");

/** Chromium, once the page, the CLI and Chromium itself are known to be there. */
export async function launchBrowser() {
  for (const [what, p] of [["the playground build", fileURLToPath(page_url)], ["the pvlint binary", pvlint], ["Chromium", chromiumPath]]) {
    if (!existsSync(p)) throw new Error(`${what} is missing at ${p}`);
  }
  mkdirSync(shots, { recursive: true });
  return chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--font-render-hinting=none"],
  });
}
