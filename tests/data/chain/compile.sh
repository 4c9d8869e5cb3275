#!/bin/sh
# Rebuild TestUSDC.json (ABI + creation bytecode) from TestUSDC.sol with the `solc` npm package
# (solcjs: the compiler is JavaScript inside the package, so nothing is downloaded at run time).
#   npm install --prefix /tmp/solc solc@0.8.26 && SOLCJS=/tmp/solc/node_modules/.bin/solcjs \
#     sh tests/data/chain/compile.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
solcjs=${SOLCJS:-solcjs}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$solcjs" --version
"$solcjs" --optimize --abi --bin --base-path "$here" -o "$out" "$here/TestUSDC.sol"
node -e '
const fs = require("fs");
const [dir, target, version] = process.argv.slice(1);
const pick = (ext) => fs.readdirSync(dir).find((f) => f.endsWith("_TestUSDC." + ext));
fs.writeFileSync(target, JSON.stringify({
  contractName: "TestUSDC", compiler: "solcjs " + version.trim(), optimizer: true,
  abi: JSON.parse(fs.readFileSync(dir + "/" + pick("abi"), "utf8")),
  bytecode: "0x" + fs.readFileSync(dir + "/" + pick("bin"), "utf8").trim(),
}, null, 1) + "\n");
' "$out" "$here/TestUSDC.json" "$("$solcjs" --version)"
echo "wrote $here/TestUSDC.json"
