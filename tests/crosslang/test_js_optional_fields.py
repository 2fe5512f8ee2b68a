"""docs/protocol.md's note on proto3 ``optional`` fields in JavaScript, checked with node.

Real messages (a Gnomeville decision whose options come from the engine through the referee's
wire code, and ``Joined`` messages with and without an explicit ``bank_ms: 0``) are decoded by
``@grpc/proto-loader`` from the TypeScript example's own ``node_modules``, loaded as the example
loads them (``enums: String``) and with the default enums (numbers). The note says: an unset
``optional`` field is absent (``undefined``) even with ``defaults: true``; a set one is present,
also when it is 0 (tile 0 is a market), and ``oneofs: true`` adds ``_tile: "tile"``;
``if (tile)`` is false for tile 0 when enums are numbers.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from games.gnomeville.positions import decision_scenarios
from kassen.v1 import referee_pb2 as pb
from kassen.wire import options_to_proto
from tests.crosslang.test_examples import built

pytestmark = pytest.mark.crosslang

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "typescript"

#: Reads hex-encoded PlayResponse messages (one per line) on stdin and prints, per loader
#: setting, what JavaScript sees of each option's tile and of Joined's bank_ms.
DECODE = r"""
const protoLoader = require("@grpc/proto-loader");
const lines = require("fs").readFileSync(0, "utf8").trim().split("\n");
const base = { keepCase: true, longs: String, defaults: true, oneofs: true };
const out = {};
for (const [name, extra] of [["example", { enums: String }], ["numbers", {}]]) {
  const def = protoLoader.loadSync(["kassen/v1/referee.proto"], {
    includeDirs: [process.argv[1]], ...base, ...extra });
  const play = def["kassen.v1.Referee"].Play;
  const seen = [];
  for (const line of lines) {
    const msg = play.responseDeserialize(Buffer.from(line, "hex"));
    if (msg.decision) {
      for (const o of msg.decision.options) {
        const g = o.gnomeville;
        seen.push({ key: o.key, has: "tile" in g, tile: g.tile === undefined ? null : g.tile,
                    oneof: g._tile === undefined ? null : g._tile, truthy: !!g.tile });
      }
    } else {
      const tc = msg.joined.time_control;
      seen.push({ bank_ms: "bank_ms" in tc ? tc.bank_ms : null });
    }
  }
  out[name] = seen;
}
console.log(JSON.stringify(out));
"""


def messages() -> list[bytes]:
    state = decision_scenarios()["market.buy"]
    decision = state.pending()[0]
    assert decision.kind == "market.buy"
    request = pb.DecisionRequest(
        request_id=1, kind=decision.kind, options=options_to_proto("gnomeville", decision)
    )
    assert request.options[0].key == "buy:market" and request.options[-1].key == "none"
    unset = pb.PlayResponse(joined=pb.Joined(time_control=pb.TimeControl(decision_ms=500)))
    zero = pb.PlayResponse(joined=pb.Joined(time_control=pb.TimeControl(bank_ms=0)))
    return [
        pb.PlayResponse(decision=request).SerializeToString(),
        unset.SerializeToString(),
        zero.SerializeToString(),
    ]


def test_the_example_loads_as_the_note_says() -> None:
    source = (EXAMPLE / "bot.ts").read_text(encoding="utf-8")
    loading = source[source.index("protoLoader.loadSync(") :].split("});", 1)[0]
    for setting in ("enums: String", "defaults: true", "oneofs: true", "longs: String"):
        assert re.search(re.escape(setting), loading), setting


def test_javascript_sees_unset_optional_fields_as_absent_and_zero_as_set() -> None:
    built("typescript")  # npm ci: the example's own @grpc/proto-loader
    done = subprocess.run(
        ["node", "-e", DECODE, str(ROOT / "proto")],
        input="\n".join(m.hex() for m in messages()),
        capture_output=True,
        text=True,
        cwd=EXAMPLE,
        timeout=120,
        check=True,
    )
    seen = json.loads(done.stdout)
    for setting, market in (("example", "TILE_MARKET"), ("numbers", 0)):
        by_key = {o["key"]: o for o in seen[setting] if "key" in o}
        assert by_key["buy:market"] == {
            "key": "buy:market",
            "has": True,
            "tile": market,
            "oneof": "tile",
            "truthy": setting == "example",  # tile 0 as a number is falsy: test presence
        }
        assert by_key["none"]["has"] is False and by_key["none"]["oneof"] is None
        banks = [o["bank_ms"] for o in seen[setting] if "bank_ms" in o]
        assert banks == [None, "0"]  # unset: absent; set to 0: "0" (longs: String)
