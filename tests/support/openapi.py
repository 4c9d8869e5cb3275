"""Reading /openapi.json and checking a response against the operation it documents."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema


async def fetch_document(client: httpx.AsyncClient) -> dict[str, Any]:
    response = await client.get("/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    document: dict[str, Any] = response.json()
    return document



def check(document: dict[str, Any], method: str, path: str,
          response: httpx.Response) -> None:
    """The answer matches what the document says for its status (or `default`)."""
    responses = document["paths"][path][method.lower()]["responses"]
    status = str(response.status_code)
    spec = responses.get(status) or responses.get(f"{status[0]}XX") or responses["default"]
    media = response.headers.get("content-type", "").split(";")[0]
    if "content" not in spec:
        assert not response.content, (method, path, status)
        return
    assert media in spec["content"] or "*/*" in spec["content"], (method, path, media)
    if not media.endswith("json"):
        return
    schema = spec["content"].get(media, spec["content"].get("*/*"))["schema"]
    jsonschema.validate(response.json(),
                        {**schema, "components": document["components"]},
                        cls=jsonschema.Draft202012Validator)
