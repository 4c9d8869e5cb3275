"""Capability versions end to end: /capabilities, item metadata per version, 406, deprecation."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import httpx
import jsonschema
import pytest

from commerce_agent.commerce.versions import VARIANTS

MUG = "item_classic_mug"
HEADER = "Accept-Commerce-Capabilities"
SCHEMAS = resources.files("commerce_agent.commerce") / "schemas"


async def variants_of(client: httpx.AsyncClient, header: str | None) -> dict[str, Any]:
    response = await client.get(f"/items/{MUG}", headers={HEADER: header} if header else {})
    assert response.status_code == 200, response.text
    metadata: dict[str, Any] = response.json()["metadata"][VARIANTS]
    return metadata


async def test_capabilities_list_each_version(client: httpx.AsyncClient) -> None:
    entries = {c["id"]: c for c in (await client.get("/capabilities")).json()["capabilities"]}
    served = [f"{VARIANTS}@1.0", f"{VARIANTS}@1.1", f"{VARIANTS}@2.0"]
    assert all(version in entries for version in served)
    old, default, new = (entries[version] for version in served)
    assert old["deprecated"] is True
    assert old["deprecatedAt"] == "2026-09-01T00:00:00Z"
    assert old["sunset"] == "2027-09-01T00:00:00Z"
    assert old["successor"] == f"{VARIANTS}@1.1"
    assert default.get("default") is True and "deprecated" not in default
    assert "deprecated" not in new and "default" not in new
    for entry in (old, default, new):
        schema = await client.get(entry["schemaUrl"].removeprefix("http://test"))
        assert schema.status_code == 200


@pytest.mark.parametrize(("header", "version", "schema"), [
    (None, "1.1", "v1.1.json"),
    (f"{VARIANTS}@1.0", "1.0", "v1.json"),
    (f"{VARIANTS}@1.1", "1.1", "v1.1.json"),
    (f"{VARIANTS}@2.0", "2.0", "v2.json"),
])
async def test_each_version_has_its_shape(client: httpx.AsyncClient, header: str | None,
                                          version: str, schema: str) -> None:
    metadata = await variants_of(client, header)
    assert metadata["_version"] == version
    jsonschema.validate(metadata, json.loads(
        (SCHEMAS / "product" / "variants" / schema).read_text()))
    variant = metadata["variants"][0]
    keys = set(variant)
    if version == "1.0":
        assert keys == {"id", "values", "price", "stock"}
    elif version == "1.1":
        assert keys == {"id", "values", "price", "stock", "sku", "available"}
        assert variant["sku"] == "MUG-BLUE-12OZ"
    else:
        assert keys == {"id", "optionValues", "price", "stock", "sku", "available"}
        assert variant["optionValues"] == ["Cobalt Blue", "12 oz"]
    if version != "1.0":
        assert all(v["available"] == (v["stock"] > 0) for v in metadata["variants"])


async def test_negotiation_reaches_catalogs_and_search(client: httpx.AsyncClient) -> None:
    headers = {HEADER: f"{VARIANTS}@2.0"}
    catalog = (await client.get("/catalogs/cat_ceramics_drinkware", headers=headers)).json()
    mug = next(item for item in catalog["items"] if item["id"] == MUG)
    assert mug["metadata"][VARIANTS]["_version"] == "2.0"
    found = (await client.get("/search?q=mug", headers=headers)).json()["items"]
    shaped = [i["metadata"][VARIANTS] for i in found if VARIANTS in i.get("metadata", {})]
    assert shaped and all(m["_version"] == "2.0" and "optionValues" in m["variants"][0]
                          for m in shaped)


async def test_deprecated_version_is_announced(client: httpx.AsyncClient) -> None:
    response = await client.get(f"/items/{MUG}", headers={HEADER: f"{VARIANTS}@1.0"})
    assert response.headers["deprecation"] == "@1788220800"
    assert response.headers["sunset"] == "Wed, 01 Sep 2027 00:00:00 GMT"
    assert 'rel="deprecation"' in response.headers["link"]
    for header in (None, f"{VARIANTS}@1.1", f"{VARIANTS}@2.0"):
        quiet = await client.get(f"/items/{MUG}", headers={HEADER: header} if header else {})
        assert "deprecation" not in quiet.headers and "sunset" not in quiet.headers
        assert HEADER in ",".join(quiet.headers.get_list("vary")).replace(" ", "").split(",")


async def test_missing_major_is_a_localized_406(client: httpx.AsyncClient) -> None:
    headers = {HEADER: f"{VARIANTS}@3.0", "Accept-Language": "fr"}
    response = await client.get(f"/items/{MUG}", headers=headers)
    assert response.status_code == 406
    body = response.json()
    assert body["code"] == "capability_version_unsupported"
    assert body["userMessage"]["params"]["served"] == "1.0, 1.1, 2.0"
    assert body["message"].startswith("Le serveur ne propose pas")
    # Responses without that metadata still answer: discovery keeps working.
    assert (await client.get("/capabilities", headers=headers)).status_code == 200
    assert (await client.get("/stores", headers=headers)).status_code == 200


@pytest.mark.parametrize("value", [b"", b",,,", b"@", b"dev.commerce.product.variants@",
                                   b"\xff\xfe", b"dev.commerce.product.variants@99999.0",
                                   b"a" * 6000])
async def test_malformed_header_never_fails(client: httpx.AsyncClient, value: bytes) -> None:
    response = await client.get(f"/items/{MUG}", headers=[(HEADER.encode(), value)])
    assert response.status_code == 200
    assert response.json()["metadata"][VARIANTS]["_version"] == "1.1"
