import tests.i18n.test_unmarked as t
orig = t.english_on
seen = {}
def spy(html):
    w = orig(html)
    if w:
        page = t._Visible(); page.feed(html)
        text = " ".join(" ".join(page.parts).split())
        for word in sorted(w):
            for m in __import__("re").finditer(r"(?i)\b" + __import__("re").escape(word) + r"\b", text):
                seen.setdefault(word, set()).add(text[max(0, m.start()-50):m.end()+50])
    return w
t.english_on = spy
def test_dbg(app, german):
    try:
        t.test_pages_in_german_show_no_english(app, german)
    except AssertionError:
        pass
    for w, ctx in sorted(seen.items()):
        for c in list(ctx)[:3]:
            print(w, "||", c)
