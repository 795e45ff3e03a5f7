// A minimal VS Code client for `urldb server` (see docs/editors.md).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("urldb").get("path", "urldb");
  client = new LanguageClient(
    "urldb",
    "urldb",
    { command, args: ["server"] },
    {
      // Every YAML file on disk; the server itself leaves alone the files
      // outside the database root (or excluded in urldb.toml).
      documentSelector: [{ scheme: "file", language: "yaml" }],
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher("**/urldb.toml"),
      },
    }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
