"""Product descriptions arrive as HTML (Shopify's Body (HTML)): keep a sanitized copy and a
plain-text one. nh3 (ammonia) does the sanitizing; the text is what the sanitized HTML shows,
with a line break after each block."""

from __future__ import annotations

from html.parser import HTMLParser

import nh3

# What a product description may keep as HTML (rich_info.descriptions.longHtml).
ALLOWED_TAGS = {"p", "br", "ul", "ol", "li", "strong", "b", "em", "i", "h2", "h3", "h4",
                "h5", "h6", "blockquote", "table", "thead", "tbody", "tr", "td", "th", "span"}
_BLOCKS = {"p", "br", "li", "ul", "ol", "h2", "h3", "h4", "h5", "h6", "blockquote", "tr",
           "table", "div"}


def safe_html(html: str) -> str:
    """The HTML with scripts, styles, event handlers, links and unknown tags removed."""
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes={}, strip_comments=True,
                     clean_content_tags={"script", "style"}).strip()


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("td", "th"):
            self.parts.append(" ")
        if tag in _BLOCKS:
            self.parts.append("\n")
        if tag == "li":
            self.parts.append("- ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(html: str) -> str:
    """What the sanitized HTML reads as: text, a line per block, no markup at all."""
    parser = _Text()
    parser.feed(safe_html(html))
    parser.close()
    lines = (" ".join(line.split()) for line in "".join(parser.parts).splitlines())
    return "\n".join(line for line in lines if line)
