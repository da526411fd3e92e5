import { QUERY_LIMITS } from '../../protocol/index.ts';

/** The grammar of the news query language (`POST /api/v2/search`) with examples, for the API reference page. */
export const QUERY_LANGUAGE_HTML = `<h2>Query language (<code>POST /api/v2/search</code>)</h2>
<p>A query counts and lists <strong>articles</strong>. Every term is matched as bytes in the article text (a
<code>title:</code> term: in its headline) with the request's <code>case</code> and <code>whole_word</code> options, like <code>count</code>.</p>
<pre>query   = or
or      = and { "OR" and }
and     = not { ["AND"] not }          adjacency means AND
not     = "NOT" not | near
near    = term [ "NEAR/" n term ]      n = 0 … 1000 words
        | "(" or ")"
term    = ["title:"] ( word | '"' phrase '"' )
word    = characters other than space, ( ) and "; a trailing * makes it a prefix</pre>
<ul>
<li><code>oil prices</code> = <code>oil AND prices</code>: both in the article, anywhere.</li>
<li><code>Merkel (Flüchtling OR Migration)</code>; <code>"oil prices" NOT "olive oil"</code>; <code>a b OR c</code> is <code>(a AND b) OR c</code>.</li>
<li><code>climate NEAR/10 protest</code>: an occurrence of each whose words are at most 10 words apart, in either order
(words are runs of letters and digits; an occurrence's position is the word it starts in). <code>NEAR/0</code>: same word.</li>
<li><code>econom*</code>: any word starting with <code>econom</code> (the occurrence must start a word). The answer lists what it
stands for in the selected years, read from the index (<code>expansions</code>: each word with its occurrences, wherever the
word's letters occur); more than ${QUERY_LIMITS.expansions.toLocaleString('en')} different words (per worker) is
422 <code>query_too_complex</code> with <code>limit</code>, before any article is read.</li>
<li>Operators are upper case; a literal one is quoted: <code>"AND"</code>. Spaces at the ends of a phrase are removed and
<code>notes</code> says so; <code>query</code> in the answer is the canonical text form, <code>query_tree</code> the JSON form
(send it back as <code>query_tree</code> instead of <code>query</code>).</li>
<li>Later pages: send the answer's <code>next_cursor</code> back as <code>cursor</code> with the same query and options;
<code>following</code> counts the matches after the cursor. A cursor of an older release is 409 <code>stale_index_version</code>.</li>
<li>A query must contain a positive term: <code>NOT oil</code> or <code>gas OR NOT oil</code> is 422 <code>invalid_query</code>.</li>
<li><code>"oil * prices"</code>: <code>*</code> as a whole word inside a phrase stands for exactly one word (letters and
digits); the phrase needs another word besides <code>*</code>. With <code>case: insensitive</code> the other words
match as any term does (full Unicode case folding: <code>"STRASSE * der"</code> finds <code>Straße in der</code>).</li>
<li><code>title:oil</code>, <code>title:"oil prices"</code>, <code>title:econom*</code>: the term is looked for in the article's
headline instead of its text (same <code>case</code> and <code>whole_word</code> options); it combines with article terms
as any term: <code>title:Merkel AND Flüchtling</code>, <code>title:oil NOT oil</code>. <code>NEAR</code> joins two terms of
the same field: <code>title:oil NEAR/2 title:prices</code> is near in the headline; a headline term NEAR an article term
is 422 <code>invalid_query</code>. When only <code>title:</code> terms match, <code>first</code> is in the headline
(its <code>term</code> starts with <code>title:</code>, <code>offset</code> counts headline bytes). A release built before
headlines were indexed answers <code>title:</code> with 422 <code>headlines_not_indexed</code>: rebuild it.</li>
<li>Syntax errors are 422 <code>invalid_query</code> with <code>position</code> (1-based character) and a plain
<code>detail</code>, e.g. <code>missing closing parenthesis for the one at position 9</code>.</li>
<li>Answers are exact within a work bound: the occurrences of the terms that drive the search (the rarest of each AND)
are located to articles, at most ${QUERY_LIMITS.locatedOccurrences.toLocaleString('en')} per worker, and the candidate articles that pass the filters hold
at most ${(QUERY_LIMITS.verifiedBytes / 1_048_576).toLocaleString('en')} MiB of text. Beyond either the answer is estimated: <code>sample_size</code> driver occurrences
(default ${QUERY_LIMITS.sampleDefault.toLocaleString('en')}) drawn with <code>seed</code>, <code>exact: false</code>, <code>articles</code> the point estimate and
<code>interval</code> (also per period) its 95% interval; the page lists matches the sample saw (also with <code>title:</code> terms, whose draws are headline occurrences). Still refused (422
<code>query_too_expensive</code>): a sample whose articles hold more than the same ${(QUERY_LIMITS.verifiedBytes / 1_048_576).toLocaleString('en')} MiB, and the worker's CPU allowance.
At most ${QUERY_LIMITS.terms} terms and 32 levels of parentheses or NOTs.</li>
</ul>`;
