import { FILTER_NAMES, type FilterLists } from '../api/types.ts';
import { PYTHON_GUARDS } from '../../python-guards/index.ts';

export interface DownloadScriptInput {
  /** Origin of the API the script talks to, e.g. `https://news.example.org`. */
  readonly apiBase: string;
  readonly query: string;
  readonly index: string;
  readonly yearMin: number | null;
  readonly yearMax: number | null;
  readonly filters: FilterLists;
  /** Matches every capitalisation (the API's `case: "insensitive"`). Whole-word searches have no script. */
  readonly caseInsensitive?: boolean;
  /** ISO time written into the script's header, so a saved script says when it was made. */
  readonly generatedAt: string;
}

/** A Python literal for a string: JSON's string syntax is a subset of Python's. */
function py(value: string | number | null): string {
  if (value === null) return 'None';
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function pyList(values: readonly string[]): string {
  return `[${values.map((v) => py(v)).join(', ')}]`;
}

/** The body of the script; parameters are prepended as constants. Standard library only. */
const SCRIPT_BODY = String.raw`
OUT_FILE = "news-articles.jsonl"
PAGE_RANKS = 1000  # ranks per /api/v2/documents call (the API's limit)
RETRIES = 3


class StaleRelease(Exception):
    """The service now serves another corpus release than the one this run started with."""



class ApiFailure(Exception):
    """Any other error answer; code is the API's stable error code when it sent one."""

    def __init__(self, path, status, code, detail):
        super().__init__("%s answered %d: %s" % (path, status, detail))
        self.code = code


def post(api, path, body):
    data = json.dumps(body).encode("utf-8")
    for attempt in range(RETRIES + 1):
        req = urllib.request.Request(api + path, data=data, method="POST",
                                     headers={"content-type": "application/json", "accept": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                return json.loads(read_answer(res, path))
        except urllib.error.HTTPError as err:
            payload = err.read().decode("utf-8", "replace")
            try:
                parsed = json.loads(payload)
            except ValueError:
                parsed = {"detail": payload}
            if err.code == 409 and parsed.get("code") == "stale_index_version":
                raise StaleRelease(parsed.get("detail", "stale index version"))
            if err.code in (502, 503, 504) and attempt < RETRIES:
                time.sleep(1 + attempt)
                continue
            raise ApiFailure(path, err.code, parsed.get("code"), parsed.get("detail", payload))
        except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
            if attempt < RETRIES:
                time.sleep(1 + attempt)
                continue
            raise ApiFailure(path, 0, "unreachable", "cannot reach %s (%s)" % (api, err))
    raise AssertionError("unreachable")


def check_release(answer, version):
    if answer.get("index_version") != version:
        raise StaleRelease("the service answered for release %r" % answer.get("index_version"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--api", default=API, help="API origin (default: %(default)s)")
    parser.add_argument("--out", default=OUT_FILE, help="output file (default: %(default)s)")
    parser.add_argument("--no-text", action="store_true", help="metadata only; skip the article texts")
    args = parser.parse_args()
    api = args.api.rstrip("/")

    filters = {name: values for name, values in FILTERS.items() if values}
    articles = {}  # (year, doc_ix) -> record; insertion order = first occurrence in find order
    examined = 0
    version = None
    try:
        found = post(api, "/api/v2/find", dict({"query": QUERY, "index": INDEX, "year_min": YEAR_MIN, "year_max": YEAR_MAX}, **MATCHING))
        total, plan = checked_plan(found)
        version = found.get("index_version")
        say("release %s: %d occurrences of %r" % (version, total, QUERY))
        # Bounded by the plan checked above: every page must cover exactly the ranks asked for.
        for shard_id, lo, hi in plan:
            for start in range(lo, hi, PAGE_RANKS):
                end = min(hi, start + PAGE_RANKS)
                body = {"index": INDEX, "query": QUERY, "shard_id": shard_id, "rank_from": start,
                        "rank_to": end, "expected_index_version": version}
                body.update(filters)
                body.update(MATCHING)
                page = post(api, "/api/v2/documents", body)
                check_page(page, start, end)
                check_release(page, version)
                for doc in page["documents"]:
                    key = (doc["year"], doc["doc_ix"])
                    if key in articles:
                        articles[key]["occurrences"] += doc["occurrences"]
                    else:
                        articles[key] = {"year": doc["year"], "doc_ix": doc["doc_ix"], "occurrences": doc["occurrences"],
                                         "first_shard_id": shard_id, "first_rank": doc["first_rank"], "metadata": doc.get("metadata")}
                examined += end - start
                say("examined %d of %d occurrences, %d articles" % (examined, total, len(articles)), progress=True)
        say("")
        if not args.no_text:
            for n, rec in enumerate(articles.values(), 1):
                try:
                    doc = post(api, "/api/v2/get_doc", dict(MATCHING, **{"index": INDEX, "query": QUERY, "shard_id": rec["first_shard_id"],
                                                         "rank": rec["first_rank"], "expected_index_version": version,
                                                         "max_ctx_len": 1, "full_text": True}))
                    if not isinstance(doc, dict) or not isinstance(doc.get("text"), str):
                        raise Contradiction("get_doc answered no article text")
                    check_release(doc, version)
                    rec["text"] = doc["text"]
                except ApiFailure as err:
                    if err.code != "article_too_large":
                        raise
                    rec["text"] = None
                    rec["text_error"] = "article_too_large"
                say("texts %d of %d" % (n, len(articles)), progress=True)
            say("")
    except StaleRelease as err:
        say("news-download: the corpus was updated while downloading (release %s is no longer served: %s). "
            "Nothing was written; run the script again to download from the new release." % (version, err))
        return 3
    except ApiFailure as err:
        say("news-download: %s. Nothing was written." % err)
        return 1
    except Contradiction as err:
        say("")  # ends the progress line
        say("news-download: stopped, the service's answer is inconsistent: %s. Nothing was written." % err)
        return 4

    tmp = args.out + ".partial"
    with open(tmp, "w", encoding="utf-8") as out:
        for rec in articles.values():
            rec["index_version"] = version
            rec["query"] = QUERY
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    os.replace(tmp, args.out)
    say("wrote %d articles to %s" % (len(articles), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
`;

/**
 * A Python 3 script (standard library only, PEP 723 header) that downloads every article matching the query,
 * crawl-year range and filters: it examines every occurrence page via v2, merges articles by (year, doc_ix),
 * stops cleanly on a 409 and writes `news-articles.jsonl`. Independent of what the browser has loaded.
 */
export function buildDownloadScript(input: DownloadScriptInput): string {
  const filters = FILTER_NAMES.map((n) => `    ${py(n)}: ${pyList(input.filters[n])},`).join('\n');
  const head = [
    '#!/usr/bin/env python3',
    '# /// script',
    '# requires-python = ">=3.8"',
    '# dependencies = []',
    '# ///',
    '"""Download every news article matching one search, as JSON lines (news-articles.jsonl).',
    '',
    `Generated ${input.generatedAt} by the news search page. Needs only the Python standard library.`,
    'It examines every matching occurrence page through the v2 API, merges occurrences into articles by (year, doc_ix),',
    'and writes nothing if the corpus release changes during the run (answer 409): run it again then.',
    'It checks every answer against the totals find reported and stops when one contradicts them.',
    'Exit status: 0 written, 1 API error, 3 release changed, 4 inconsistent answer.',
    '',
    'Usage: python3 news-download.py [--api URL] [--out FILE] [--no-text]',
    '"""',
    'import argparse',
    'import json',
    'import os',
    'import re',
    'import sys',
    'import time',
    'import urllib.error',
    'import urllib.request',
    '',
    `API = ${py(input.apiBase.replace(/\/+$/, ''))}`,
    `INDEX = ${py(input.index)}`,
    `QUERY = ${py(input.query)}`,
    `YEAR_MIN = ${py(input.yearMin)}`,
    `YEAR_MAX = ${py(input.yearMax)}`,
    `MATCHING = ${input.caseInsensitive === true ? '{"case": "insensitive"}' : '{}'}`,
    'FILTERS = {',
    filters,
    '}',
  ].join('\n');
  return `${head}\n${PYTHON_GUARDS}${SCRIPT_BODY}`;
}
