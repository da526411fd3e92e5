import { PYTHON_GUARDS } from '../python-guards/index.ts';
import { HUB_FORMAT, HUB_FORMAT_VERSION, HUB_MANIFEST_FILE, HUB_RELEASE_FILE } from './layout.ts';

/** What the gateway knows when it answers info: where the API and the hub copy are, and which revision to pin. */
export interface RecipeSettings {
  /** Origin of this API as the caller reached it, e.g. `https://news.example.org`. */
  readonly apiBase: string;
  /** `owner/name` of the dataset repository (GATEWAY_HF_REPO); null when no copy is configured. */
  readonly repo: string | null;
  /** GATEWAY_HF_CORPUS_REVISION: pins the commit; null resolves the latest commit once (binding rule 5). */
  readonly revision: string | null;
  /** Hub origin (GATEWAY_HF_ENDPOINT), e.g. `https://huggingface.co`. */
  readonly endpoint: string;
  readonly index: string;
}

function py(value: string | null): string {
  return value === null ? 'None' : JSON.stringify(value);
}

const BODY = String.raw`

class RecipeStop(Exception):
    """A check failed: the hub copy and the API do not describe the same verified articles."""


def http_json(url, body=None):
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                 headers={"accept": "application/json", "content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as res:
            return json.loads(read_answer(res, url))
    except urllib.error.HTTPError as err:
        try:
            detail = json.loads(err.read().decode("utf-8"))
        except ValueError:
            detail = {}
        if err.code == 409 or detail.get("code") in ("stale_index_version", "release_unavailable"):
            raise RecipeStop("the API release changed (%s); start again" % detail.get("detail", err.code))
        raise RecipeStop("%s answered %d: %s" % (url, err.code, detail.get("detail", "")))


def api(path, body=None):
    return http_json(API + path, body)


def hub_file_url(revision, path):
    return "%s/datasets/%s/resolve/%s/%s" % (HUB, REPO, urllib.parse.quote(revision, safe=""), path)


def resolve_revision():
    """Step 1: the commit every download uses. Resolved once, unless pinned."""
    if REVISION:
        return REVISION
    return http_json("%s/api/datasets/%s" % (HUB, REPO))["sha"]


def check_publication(revision, api_version, api_shards):
    """Step 2: the publication's release identity and the shard manifest's row counts, before any row."""
    release = http_json(hub_file_url(revision, RELEASE_FILE))
    if release.get("format") != FORMAT or release.get("format_version") != FORMAT_VERSION:
        raise RecipeStop("%s at %s is not %s v%d" % (RELEASE_FILE, revision, FORMAT, FORMAT_VERSION))
    if release.get("index_version") != api_version:
        raise RecipeStop("the hub copy at %s is release %r, the API serves %r" % (revision, release.get("index_version"), api_version))
    manifest = http_json(hub_file_url(revision, MANIFEST_FILE))
    if manifest.get("index_version") != api_version or manifest.get("index") != INDEX:
        raise RecipeStop("the shard manifest describes another release or index")
    total = manifest["total_rows"]
    if sum(s["rows"] for s in manifest["shards"]) != total or sum(y["rows"] for y in manifest["years"]) != total:
        raise RecipeStop("the shard manifest's row counts do not add up to %d" % total)
    published = {s["shard_id"]: s["rows"] for s in manifest["shards"]}
    served = {s["shard_id"]: s["documents"] for s in api_shards}
    if published != served:
        raise RecipeStop("the hub copy's rows per shard differ from the articles the API serves")
    return manifest


def locate(manifest, year, doc_ix):
    """Step 3: (year, doc_ix) -> (partition path, row inside it)."""
    for y in manifest["years"]:
        if y["year"] == year:
            for p in y["partitions"]:
                if p["first_doc_ix"] <= doc_ix < p["first_doc_ix"] + p["rows"]:
                    return p, doc_ix - p["first_doc_ix"]
    raise RecipeStop("article (%s, %d) is not in the hub copy" % (year, doc_ix))


def download_partition(revision, partition, folder):
    """Each needed partition once, at the pinned commit, checked against the manifest's sha256."""
    target = os.path.join(folder, partition["path"].replace("/", "__"))
    with urllib.request.urlopen(hub_file_url(revision, partition["path"]), timeout=600) as res, open(target, "wb") as out:
        digest = hashlib.sha256()
        for chunk in iter(lambda: res.read(1 << 20), b""):
            digest.update(chunk)
            out.write(chunk)
    if digest.hexdigest() != partition["sha256"]:
        raise RecipeStop("%s at %s does not match the manifest's sha256" % (partition["path"], revision))
    return pq.read_table(target).to_pylist()


def normalized_hash(value):
    """text_xxhash64 as a decimal string, whether a reader produced text or an integer."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    text = str(value).strip()
    return str(int(text)) if text.isdigit() else text


def verify(row, meta, year, doc_ix):
    """Steps 4 and 5: warc_record_id and text_xxhash64 of the row equal the API's; absent or different stops."""
    if row.get("year") != year or int(row.get("doc_ix")) != doc_ix:
        raise RecipeStop("partition row for (%s, %d) holds (%s, %s)" % (year, doc_ix, row.get("year"), row.get("doc_ix")))
    for field, norm in (("warc_record_id", lambda v: v), ("text_xxhash64", normalized_hash)):
        mine, theirs = norm(row.get(field)), norm(meta.get(field))
        if mine is None or theirs is None:
            raise RecipeStop("(%s, %d): %s is missing in the %s" % (year, doc_ix, field, "hub row" if mine is None else "API metadata"))
        if mine != theirs:
            raise RecipeStop("(%s, %d): %s differs (hub %s, API %s)" % (year, doc_ix, field, mine, theirs))


def article_refs(query, year_min, year_max, limit):
    """The articles to retrieve: the first ones matching the phrase, via v2 find and documents."""
    found = api("/api/v2/find", {"query": query, "index": INDEX, "year_min": year_min, "year_max": year_max})
    _, plan = checked_plan(found)
    version = found.get("index_version")
    refs = []
    # Bounded by the checked plan: each page must cover exactly the ranks asked for (check_page).
    for shard_id, lo, hi in plan:
        for start in range(lo, hi, 1000):
            end = min(hi, start + 1000)
            page = api("/api/v2/documents", {"index": INDEX, "query": query, "shard_id": shard_id, "rank_from": start,
                                              "rank_to": end, "expected_index_version": version})
            check_page(page, start, end)
            for doc in page["documents"]:
                ref = (doc["year"], doc["doc_ix"])
                if ref not in refs:
                    refs.append(ref)
                if len(refs) >= limit:
                    return version, refs
    return version, refs


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("query", help="exact phrase (byte-exact, case-sensitive)")
    parser.add_argument("--year-min", type=int)
    parser.add_argument("--year-max", type=int)
    parser.add_argument("--limit", type=int, default=100, help="articles to retrieve (default: %(default)s)")
    parser.add_argument("--out", default="hub-articles.jsonl")
    args = parser.parse_args()
    if not REPO:
        sys.exit("No dataset hub copy is configured for this service (GATEWAY_HF_REPO is unset); use get_doc instead.")
    try:
        info = api("/api/v2/info?index=" + urllib.parse.quote(INDEX))
        revision = resolve_revision()
        manifest = check_publication(revision, info["index_version"], info["shards"])
        version, refs = article_refs(args.query, args.year_min, args.year_max, args.limit)
        if version != info["index_version"]:
            raise RecipeStop("the API release changed from %r to %r" % (info["index_version"], version))
        by_partition = {}
        for year, doc_ix in refs:
            partition, row = locate(manifest, year, doc_ix)
            by_partition.setdefault(partition["path"], (partition, []))[1].append((year, doc_ix, row))
        written = 0
        with tempfile.TemporaryDirectory() as folder, open(args.out + ".partial", "w", encoding="utf-8") as out:
            for partition, wanted in by_partition.values():
                rows = download_partition(revision, partition, folder)
                for i in range(0, len(wanted), 1000):
                    chunk = wanted[i:i + 1000]
                    meta = api("/api/v2/metadata", {"index": INDEX, "expected_index_version": version,
                                                     "documents": [{"year": y, "doc_ix": d} for y, d, _ in chunk]})
                    if meta.get("index_version") != version:
                        raise RecipeStop("the API release changed to %r" % meta.get("index_version"))
                    for (year, doc_ix, row), entry in zip(chunk, meta["documents"]):
                        verify(rows[row], entry["metadata"], year, doc_ix)
                        record = dict(rows[row])
                        record["revision"] = revision
                        record["index_version"] = version
                        out.write(json.dumps(record, ensure_ascii=False) + "\n")
                        written += 1
        os.replace(args.out + ".partial", args.out)
        say("verified %d articles from %s@%s (release %s) into %s" % (written, REPO, revision, version, args.out))
    except (RecipeStop, Contradiction) as stop:
        if os.path.exists(args.out + ".partial"):
            os.remove(args.out + ".partial")
        say("stopped: %s" % stop)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
`;

/**
 * info's `python_example`: a runnable script for the spec's six recipe steps against the `news publish-hub`
 * layout. It pins one commit (`settings.revision`, else the latest resolved once), checks the publication's release
 * and row counts, downloads each needed partition once, verifies warc_record_id and text_xxhash64 of every row
 * against v2 metadata, and stops on any mismatch, missing value or release change. No viewer row links (step 6).
 * @example pythonRecipe({ apiBase: 'https://news.example.org', repo: 'org/news', revision: null, endpoint: 'https://huggingface.co', index: 'news' })
 */
export function pythonRecipe(settings: RecipeSettings): string {
  const head = [
    '#!/usr/bin/env python3',
    '# /// script',
    '# requires-python = ">=3.8"',
    '# dependencies = ["pyarrow"]',
    '# ///',
    '"""Retrieve verified news articles from the corpus copy on the dataset hub.',
    '',
    '1. Resolves the latest commit of the repository once (or uses the pinned REVISION) and pins every download to it.',
    "2. Checks the publication's release identity and the shard manifest's row counts against the API first.",
    '3. Maps (year, doc_ix) to partition rows and downloads each needed Parquet partition once at that commit.',
    '4. Verifies warc_record_id and the string-normalized text_xxhash64 of every row against the API metadata.',
    '5. Stops when either value is absent or differs, when the API release changes, or when an answer contradicts',
    '   the totals find reported (it prints no control characters from any answer).',
    '6. Uses no dataset-viewer row links: the viewer cannot address an immutable row.',
    '',
    'Usage: python3 recipe.py "phrase" [--year-min Y] [--year-max Y] [--limit N] [--out hub-articles.jsonl]',
    '"""',
    'import argparse',
    'import hashlib',
    'import json',
    'import os',
    'import re',
    'import sys',
    'import tempfile',
    'import urllib.error',
    'import urllib.parse',
    'import urllib.request',
    '',
    'import pyarrow.parquet as pq',
    '',
    `API = ${py(settings.apiBase.replace(/\/+$/, ''))}`,
    `HUB = ${py(settings.endpoint.replace(/\/+$/, ''))}`,
    `REPO = ${py(settings.repo)}`,
    `REVISION = ${py(settings.revision)}  # None: resolve the latest commit once (GATEWAY_HF_CORPUS_REVISION pins it)`,
    `INDEX = ${py(settings.index)}`,
    `FORMAT = ${py(HUB_FORMAT)}`,
    `FORMAT_VERSION = ${HUB_FORMAT_VERSION}`,
    `RELEASE_FILE = ${py(HUB_RELEASE_FILE)}`,
    `MANIFEST_FILE = ${py(HUB_MANIFEST_FILE)}`,
  ].join('\n');
  return `${head}\n${PYTHON_GUARDS}${BODY}`;
}
