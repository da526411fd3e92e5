/**
 * Python shared by the scripts this service hands out (the page's download script and info's hub recipe): what
 * they print and how far they let a server lead them. A script trusts nothing it did not check: server strings are
 * printed without terminal control sequences, and every loop is bounded by the totals find reported at the start,
 * so a hostile or broken server makes the script stop with a clear message instead of driving the terminal or
 * looping without end. Needs `re` and `sys` imported.
 */
export const PYTHON_GUARDS = String.raw`
MAX_RANK = 2 ** 53 - 1  # ranks are exact JSON integers
MAX_ANSWER_BYTES = 64 << 20  # the largest documented answer (metadata) is 16 MiB

# Everything printed passes through say(): escape sequences (CSI, OSC such as OSC 52 clipboard writes, their
# 8-bit forms) are removed whole, then any other C0/C1 control or DEL, so a server string cannot drive the terminal.
ESCAPES = re.compile(r"(\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(\x1b\]|\x9d)[^\x07\x1b\x9c]*(\x07|\x1b\\|\x9c)?|\x1b[@-_]?")
CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(value):
    return CONTROLS.sub("", ESCAPES.sub("", str(value)))


def say(message, progress=False):
    """One line on stderr, control characters removed; progress lines overwrite each other."""
    if progress:
        print("\r" + printable(message), end="", file=sys.stderr)
    else:
        print(printable(message), file=sys.stderr)
    sys.stderr.flush()


class Contradiction(Exception):
    """An answer contradicts the totals checked at the start (or itself): stop rather than loop on it."""


def is_rank(value):
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_RANK


def checked_plan(found):
    """The find answer's shards and rank intervals, after checking they add up to its total_occurrences."""
    if not isinstance(found, dict):
        raise Contradiction("find answered something other than a JSON object")
    total = found.get("total_occurrences")
    shard_ids = found.get("shard_ids")
    segments = found.get("segment_by_shard")
    if not is_rank(total) or not isinstance(shard_ids, list) or not isinstance(segments, list) or len(shard_ids) != len(segments):
        raise Contradiction("find answered without a usable total_occurrences, shard_ids and segment_by_shard")
    plan = []
    for shard_id, segment in zip(shard_ids, segments):
        if not isinstance(segment, list) or len(segment) != 2 or not all(is_rank(r) for r in segment) or segment[0] > segment[1]:
            raise Contradiction("find answered a rank interval that is not [start, end) with 0 <= start <= end: %r" % (segment,))
        plan.append((shard_id, segment[0], segment[1]))
    ranks = sum(hi - lo for _, lo, hi in plan)
    if ranks != total:
        raise Contradiction("find's rank intervals hold %d occurrences but its total_occurrences is %d" % (ranks, total))
    return total, plan


def read_answer(res, what):
    """An answer's bytes, refused beyond MAX_ANSWER_BYTES rather than read without end."""
    answer = res.read(MAX_ANSWER_BYTES + 1)
    if len(answer) > MAX_ANSWER_BYTES:
        raise Contradiction("%s answered more than %d bytes" % (what, MAX_ANSWER_BYTES))
    return answer.decode("utf-8")


def check_page(page, start, end):
    """A documents page must cover exactly the ranks asked for and hold no more occurrences than that."""
    if not isinstance(page, dict):
        raise Contradiction("ranks [%d, %d) answered something other than a JSON object" % (start, end))
    docs = page.get("documents")
    if page.get("rank_from") != start or page.get("rank_to") != end or page.get("page_occurrences") != end - start:
        raise Contradiction("asked for ranks [%d, %d), the service answered [%r, %r) with %r occurrences"
                            % (start, end, page.get("rank_from"), page.get("rank_to"), page.get("page_occurrences")))
    # Every rank is an occurrence in some article, so a page has 1 to (end - start) distinct articles (before
    # filters); the filtered list cannot hold more.
    distinct = page.get("page_distinct_documents")
    if not is_rank(distinct) or not 1 <= distinct <= end - start or not isinstance(docs, list) or len(docs) > distinct:
        raise Contradiction("ranks [%d, %d) answered %r distinct articles and a list of %s"
                            % (start, end, distinct, len(docs) if isinstance(docs, list) else "none"))
    counted = 0
    for doc in docs:
        if not isinstance(doc, dict) or not isinstance(doc.get("year"), str) or not is_rank(doc.get("doc_ix")):
            raise Contradiction("ranks [%d, %d) answered an article without year and doc_ix" % (start, end))
        n, first = doc.get("occurrences"), doc.get("first_rank")
        if not is_rank(n) or n < 1 or not is_rank(first) or not start <= first < end:
            raise Contradiction("ranks [%d, %d) answered an article outside them or without occurrences" % (start, end))
        counted += n
    if counted > end - start:
        raise Contradiction("ranks [%d, %d) answered %d occurrences, more than the %d asked for" % (start, end, counted, end - start))

`;
