"""Word tables of attribution (data for ``judge.attribution``).

``CATEGORY``: the words a model adds to name the category of what the user said ("dependencies",
"commands", "files", "JS", "tests"): they say nothing the user did not, so they never count
against the user. Written as people write them; the judge stems them as ``claims.distinctive`` stems.

``TOOLS``: names of tools, services and products that are the anchor of a claim though written
as plain words ("pnpm", "pytest", "gofmt"): a claim naming one the user never named is not the
user's. Ecosystem names that models use as categories ("Node", "JS", "Python") are in
``CATEGORY`` instead, and names that are also common words ("make", "go", "black", "spring",
"express") are left out: written as code they are anchors anyway.

``ACKNOWLEDGEMENTS``: how an assistant reply that restates the user opens ("Noted.", "明白，",
"Entendido"): its words are an echo of the user and never count against the user; anchors it
adds still do.
"""
from __future__ import annotations

CATEGORY: dict[str, tuple[str, ...]] = {
    "en": ("dependency", "dependencies", "package", "library", "libraries", "module", "command", "script", "file",
           "folder", "directory", "directories", "test", "suite", "spec", "code", "codebase", "source", "repo", "repository",
           "project", "change", "update", "step", "task", "process", "workflow", "convention", "style", "format",
           "guideline", "practice", "language", "tool", "tooling", "setup", "config", "configuration", "setting",
           "environment", "job", "pipeline", "request", "requesting", "build", "builds", "built", "building", "js", "ts", "javascript", "typescript", "node",
           "node.js", "nodejs", "python", "frontend", "backend", "app", "application", "service", "team", "developer",
           "dev", "contributor", "everyone", "all", "every", "any", "each", "whole", "entire", "here", "this",
           "generally", "always", "instead", "rather", "policy", "standard", "requirement", "required", "requires",
           "mandatory", "should", "must", "ensure", "make", "keep", "prefer", "preferred", "use", "using", "run",
           "running", "write", "writing", "written", "add", "adding", "do", "doing", "done", "go", "goes", "going",
           "work", "working", "part", "thing", "way", "rule", "note", "remember", "explicit", "explicitly", "user",
           "instruct", "instructed", "said", "say", "state", "stated", "want", "wants", "ask", "asked", "like", "before",
           "after", "when", "whenever", "time", "future", "later", "now", "going", "forward", "onward", "from", "on"),
    "zh": ("依赖", "安装", "包", "命令", "脚本", "文件", "目录", "测试", "代码", "仓库", "项目", "改动", "变更", "步骤", "流程", "规范",
           "风格", "格式", "工具", "配置", "环境", "构建", "所有", "每次", "一律", "统一", "团队", "开发", "使用", "执行",
           "运行", "相关", "操作", "时候", "之前", "之后", "以后", "今后", "始终", "总是"),
    "es": ("dependencias", "paquetes", "comandos", "archivos", "ficheros", "pruebas", "tests", "código", "codigo", "repositorio",
           "repo", "proyecto", "cambios", "pasos", "proceso", "convención", "estilo", "formato", "herramienta", "herramientas",
           "configuración", "siempre", "todos", "todas", "usar", "usa", "equipo"),
    "de": ("abhängigkeiten", "pakete", "befehle", "kommandos", "dateien", "tests", "code", "repository", "repo", "projekt",
           "änderungen", "schritte", "prozess", "konvention", "stil", "format", "werkzeug", "werkzeuge", "tools",
           "konfiguration", "immer", "alle", "verwenden", "nutzen", "team"),
    "fr": ("dépendances", "paquets", "commandes", "fichiers", "tests", "code", "dépôt", "projet", "changements",
           "modifications", "étapes", "processus", "convention", "style", "format", "outil", "outils", "configuration",
           "toujours", "tous", "toutes", "utiliser", "équipe"),
    "ja": ("依存関係", "パッケージ", "コマンド", "ファイル", "テスト", "コード", "リポジトリ", "プロジェクト", "変更", "手順",
           "規約", "スタイル", "形式", "ツール", "設定", "常に", "すべて", "全て", "使う", "使用"),
}

TOOLS = frozenset("""
pnpm npm yarn bun npx pnpx deno pip pipx uv conda mamba pdm rustup rustfmt clippy gofmt goimports golangci-lint ruff
flake8 pylint mypy pyright isort autopep8 yapf prettier eslint tslint stylelint tsc jest vitest pytest tox nox
unittest cmake bazel gradle gradlew maven mvn sbt docker podman kubectl helm k9s terraform terragrunt pulumi ansible
vagrant packer git gh webpack vite rollup esbuild swc turbopack storybook playwright cypress selenium puppeteer
postgres postgresql psql mysql mariadb sqlite redis mongo mongodb kafka rabbitmq nginx apache caddy vue angular svelte
nextjs nuxt django fastapi laravel symfony nestjs koa prisma sequelize typeorm drizzle alembic flyway liquibase
graphql grpc protobuf openapi swagger sentry datadog grafana prometheus jenkins circleci travis gitlab github
bitbucket jira slack confluence figma vercel netlify heroku aws gcp azure s3 cloudflare firebase supabase stripe
twilio sendgrid java kotlin golang ruby php perl bash zsh powershell husky lint-staged commitlint changesets renovate
dependabot semantic-release lerna nx turborepo bower rspec minitest junit testng xunit nunit gtest catch2 valgrind gdb
lldb clang gcc llvm msbuild dotnet nuget xcode cocoapods carthage fastlane tailwind scss postcss jq yq curl wget rsync
ssh scp tmux vim neovim emacs vscode intellij pycharm goland ktlint detekt spotless checkstyle pmd sonarqube snyk
trivy gitleaks trufflehog semgrep codeql bandit pre-commit shellcheck hadolint yamllint markdownlint htmlhint jekyll
mkdocs docusaurus doxygen typedoc jsdoc k6 locust jmeter gatling sidekiq airflow dagster dbt hadoop pandas numpy scipy
pydantic sqlalchemy httpx aiohttp axios lodash dayjs zod yup redux mobx zustand rxjs jquery d3 threejs electron tauri
flutter cordova godot opencv pytorch tensorflow keras jax onnx wasm webassembly nodemon pm2 systemd cron crontab
uvicorn gunicorn traefik istio nomad
""".split())

ACKNOWLEDGEMENTS: dict[str, tuple[str, ...]] = {
    "en": ("noted", "got it", "understood", "ok", "okay", "sure", "will do", "i'll", "i will", "from now on", "going forward",
           "makes sense", "sounds good", "of course", "alright", "all right", "right", "thanks", "thank you", "good to know",
           "perfect", "great", "acknowledged", "roger", "absolutely", "yes", "yep", "done"),
    "zh": ("明白", "好的", "收到", "了解", "知道了", "好", "没问题", "记住了", "记下了", "以后", "嗯", "可以"),
    "es": ("entendido", "de acuerdo", "vale", "perfecto", "anotado", "claro", "muy bien", "hecho", "ok"),
    "de": ("verstanden", "alles klar", "notiert", "mach ich", "in ordnung", "klar", "gut", "okay", "ok", "geht klar"),
    "fr": ("compris", "d'accord", "noté", "entendu", "parfait", "très bien", "ok", "bien reçu", "c'est noté"),
    "ja": ("承知", "了解", "わかりました", "分かりました", "かしこまりました", "はい", "オーケー", "ok", "了解です"),
}

# Function words of the languages the judge reads besides English (``claims.STOPWORDS`` holds
# English's): they never count as shared content, and their counts tell which language a text is
# written in (``language``).
FUNCTION_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("the", "and", "of", "to", "in", "is", "are", "for", "with", "on", "that", "this", "we", "it", "be", "not",
           "never", "always", "our", "use", "all", "before", "when", "from", "by", "or", "do", "don't", "must", "should"),
    "es": ("el", "la", "los", "las", "un", "una", "unos", "unas", "de", "del", "al", "y", "o", "en", "con", "por", "para",
           "que", "se", "su", "sus", "es", "son", "este", "esta", "estos", "estas", "lo", "le", "nos", "nuestro",
           "nuestra", "siempre", "nunca", "no", "antes", "después", "cuando", "como", "más", "muy", "todo", "todos",
           "todas", "hay", "usamos", "usar", "usa", "hacer", "pero", "sin", "sobre", "entre", "ya"),
    "de": ("der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "und", "oder", "in", "im",
           "mit", "von", "vom", "zu", "zum", "zur", "für", "auf", "an", "am", "bei", "nach", "vor", "ist", "sind", "wird",
           "werden", "wir", "ihr", "du", "sie", "es", "nicht", "immer", "nie", "kein", "keine", "bitte", "auch", "nur",
           "dass", "wenn", "als", "wie", "aber", "unser", "unsere", "alle", "diese", "dieser", "dieses"),
    "fr": ("le", "la", "les", "un", "une", "des", "de", "du", "et", "ou", "en", "dans", "avec", "pour", "par", "sur",
           "au", "aux", "est", "sont", "nous", "vous", "on", "ne", "pas", "jamais", "toujours", "que", "qui", "ce", "cette",
           "ces", "notre", "nos", "tous", "toutes", "tout", "avant", "après", "quand", "comme", "mais", "sans", "il",
           "elle", "ils", "se", "sa", "son", "ses", "leur"),
    "pt": ("o", "os", "as", "um", "uma", "de", "do", "da", "dos", "das", "e", "ou", "em", "no", "na", "com", "por", "para",
           "que", "se", "é", "são", "nós", "sempre", "nunca", "não"),
    "it": ("il", "lo", "gli", "una", "di", "del", "della", "e", "o", "in", "nel", "con", "per", "su", "che", "è", "sono",
           "noi", "sempre", "mai", "non"),
}
