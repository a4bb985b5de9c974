"""What belongs to one moment or one machine, not to the project (R19, R23), as frames: the
product page's "never memory" list beyond absolute paths, SHAs, hosts and git state
(``memory.textrules``).

``temporary-pin``   a version held until something happens upstream ("pin X until upstream
                    fixes …", "暂时把 numpy 锁在 1.26，等上游修好再放开"); a pin with a lasting reason
                    ("we pin numpy to 1.26 because the C extension needs it") stays
``one-off-flaky``   a failure seen once ("the auth test failed once today") or put down to a
                    passing outside event ("failed because the registry timed out"); a known
                    flaky test or a recurring cause, and what to do about it, stays
``machine-layout``  where one machine keeps things ("D 盘 work 目录", "on my laptop the clone is in
                    Projects") without an absolute path
``outside-path``    a path that leaves the project (``../data-repo``), other than a source file's
                    relative import
"""
from __future__ import annotations

from chord_git.judge.frames import Examples, Rule

_PIN: dict[str, tuple[str, ...]] = {
    "en": ("pin(?:s|ned|ning)?", "lock(?:s|ed|ing)?", "hold(?:s|ing)?\\s+(?:back\\s+)?(?:at|on|to|below|under)",
           "keep\\w*\\s+\\S+\\s+(?:at|on|to|below|under|<)", "skip(?:s|ped|ping)?", "disabl\\w+", "xfail\\w*", "quarantin\\w+",
           "stay(?:s|ing)?\\s+on", "stick(?:s|ing)?\\s+(?:to|with)", "freez\\w+", "cap(?:s|ped|ping)?", "downgrad\\w+",
           "==\\s?\\d", "<\\s?\\d", "kept\\s+(?:at|on|below|back)", "stays?\\s+(?:at|on|below)", "held\\s+(?:at|back|on)",
           "comment(?:s|ed|ing)?\\s+out", "(?:does\\s+not|doesn't|do\\s+not|don't)\\s+run", "turn(?:s|ed)?\\s+off"),
    # a version held: "node:20.10", "at 3.1.5", "@4.2" (with a "until" it is a pin, whatever the verb)
    "any": ("[@:=]\\s?v?\\d+(?:\\.\\d+)+", "v?\\d+\\.\\d+(?:\\.\\d+)+"),
    "zh": ("锁在", "锁定", "锁到", "钉在", "固定在", "固定到", "pin\\s?在", "pin\\s?到", "停在", "降到", "降级", "跳过", "禁用"),
    "es": ("se\\s+mantiene\\s+en", "qued[ao]\\s+en", "fij\\w+", "fija\\w*", "manten\\w*\\s+\\S+\\s+en", "mant[eé]n\\w*", "qu[eé]date\\s+en", "bloque\\w+", "congel\\w+",
           "s[aá]lt\\w+", "desactiv\\w+"),
    "de": ("pinn\\w*", "fixier\\w*", "bleib\\w*\\s+(?:bei|auf)", "halt\\w*\\s+\\S+\\s+auf", "sperr\\w*", "einfrier\\w*",
           "[üu]berspring\\w*", "deaktivier\\w*"),
    "fr": ("[ée]pingl\\w+", "fig\\w+", "bloqu\\w+", "rest\\w*\\s+sur", "gard\\w*\\s+\\S+\\s+en", "verrouill\\w+", "saut\\w+",
           "d[ée]sactiv\\w+"),
    "ja": ("固定", "ピン留め", "止めて", "止める", "コメントアウト", "ピン", "据え置", "留め", "スキップ", "無効"),
}
_UNTIL: dict[str, tuple[str, ...]] = {
    "en": ("until\\s+(?:the\\s+)?(?:upstream|they|it|a|an|the|fix|next|we|\\S+\\s+(?:is|are|gets?)\\s+(?:fixed|released|merged|out))",
           "till\\s+(?:upstream|they|it|the|a)", "for\\s+now", "temporar(?:y|ily)", "for\\s+the\\s+time\\s+being",
           "in\\s+the\\s+meantime", "this\\s+(?:week|sprint|release)", "until\\s+further\\s+notice", "until\\s+\\S+\\s+\\d",
           "while\\s+(?:\\S+\\s+){1,4}?(?:is|are)\\s+(?:down|degraded|broken|flaky|red|failing|being\\s+fixed)"),
    "zh": ("暂时", "临时", "先(?=\\s?(?:锁|钉|固定|pin|用|停|把))", "等(?:上游|官方|他们|它|新版|下个版本)?[^。；]{0,20}(?:修好|修复|发布|合并|出来|放开|解决|新版)",
           "目前先", "这周", "本周", "再(?:升|放开|打开|恢复|解除)"),
    "es": ("hasta\\s+(?:que|el|la|los|las|una?|nuevo\\s+aviso)\\b", "por\\s+ahora", "temporalmente", "de\\s+momento", "provisionalmente", "esta\\s+semana", "mientras"),
    "de": ("bis\\s+(?:upstream|das|der|die|es|ein|eine)?\\s*\\S*\\s*(?:gefixt|behoben|repariert|released|erscheint)", "vorerst",
           "vor[üu]bergehend", "erstmal", "erst\\s+mal", "bis\\s+auf\\s+weiteres", "f[üu]rs\\s+erste", "diese\\s+woche", "solange"),
    "fr": ("jusqu'(?:[àa]|au|aux)\\b", "pour\\s+l'instant", "pour\\s+le\\s+moment", "temporairement", "en\\s+attendant", "provisoirement",
           "cette\\s+semaine", "tant\\s+que"),
    "ja": ("一時的に", "当面", "暫定", "しばらく", "(?:修正|リリース|対応)(?:される)?まで", "(?:出る|出た|直る|される|終わる|なる)まで",
           "今週"),
}
# What a pin is chosen instead of: its words describe the way not taken ("版本由 go.mod 锁定，而不是从
# 官网临时下载安装": the temporary is the download, not the pin).
_INSTEAD: dict[str, tuple[str, ...]] = {
    "any": ("(?:而不是|instead\\s+of|rather\\s+than|en\\s+lugar\\s+de|en\\s+vez\\s+de|statt|anstatt|au\\s+lieu\\s+de|ではなく)[^。.;；\\n]*",),
}
TEMPORARY_PIN = Rule(
    id="temporary-pin", reason="temporary-pin",
    slots={"pin": _PIN, "until": _UNTIL, "instead": _INSTEAD}, needs=(("pin", "until"),), cancel_on_negation=False,
    masks=("instead",),
    examples=Examples(
        match=("Pin requests to 2.31 until upstream fixes the proxy bug.", "openssl is kept at 3.0.13 until the base image is updated.",
               "CI does not run the Windows job while the runner image is broken.",
               "Django se mantiene en la versión 4.2.11 hasta el parche de la 5.0.", "暂时把 numpy 锁在 1.26，等上游修好再放开。",
               "Keep pydantic at 1.10 for now.", "Fija urllib3 en 1.26 hasta que arreglen el bug.",
               "Pinne numpy vorerst auf 1.26.", "Épingle numpy à 1.26 pour l'instant.", "numpyは修正されるまで1.26に固定して。",
               "Use node:20.10 as the Docker base image until the next security release.",
               "Keep Spring Boot at 3.1.5 until the upstream bug is fixed."),
        benign=("We pin numpy to 1.26 because the C extension needs it.", "我们把 numpy 固定在 1.26，因为 C 扩展依赖它。",
                "Wait until CI is green before merging.", "Lock files are committed.",
                "工具版本由 go.mod 锁定，而不是临时从官网下载安装。"),
    ),
)

_FAILED: dict[str, tuple[str, ...]] = {
    "en": ("failed", "flaked", "broke", "timed\\s+out", "crashed", "went\\s+red", "was\\s+red", "errored"),
    "zh": ("失败了", "挂了", "挂掉了", "超时了", "报错了", "红了", "崩了", "跑挂了"),
    "es": ("fall[oó]", "ha\\s+fallado", "fall[oó]\\s+una\\s+vez", "se\\s+cay[oó]", "dio\\s+error"),
    "de": ("fehlgeschlagen\\w*", "schlug\\s+fehl", "ist\\s+rot", "abgest[üu]rzt", "gescheitert"),
    "fr": ("[ée]chou[ée]", "a\\s+plant[ée]", "a\\s+crash[ée]", "est\\s+rouge", "a\\s+[ée]chou[ée]"),
    "ja": ("失敗し(?:た|ました)", "落ち(?:た|ました)", "コケ(?:た|ました)", "タイムアウトし(?:た|ました)", "エラーになり?(?:った|ました)"),
}
_ONCE: dict[str, tuple[str, ...]] = {
    "en": ("once", "one\\s+time", "today", "this\\s+(?:morning|afternoon|evening)", "yesterday", "just\\s+now", "last\\s+night",
           "on\\s+(?:the|my|our)\\s+last\\s+(?:run|push|build)", "a\\s+minute\\s+ago", "earlier\\s+today"),
    "zh": ("一次", "今天", "刚才", "刚刚", "昨天", "早上", "上午", "下午", "今晚"),
    "es": ("una\\s+vez", "hoy", "esta\\s+ma[ñn]ana", "ayer", "hace\\s+un\\s+rato"),
    "de": ("einmal", "heute", "heute\\s+morgen", "gestern", "gerade\\s+eben", "vorhin"),
    "fr": ("une\\s+fois", "aujourd'hui", "ce\\s+matin", "hier", "tout\\s+[àa]\\s+l'heure"),
    "ja": ("一度", "一回", "今日", "今朝", "昨日", "さっき"),
}
# A failure named as a thing ("that test failure", "el fallo"): with "once" or an outside cause.
_FAILURE: dict[str, tuple[str, ...]] = {
    "en": ("failures?", "red\\s+build"),
    "zh": ("失败(?=是|的原因|原因|因为)", "构建失败", "测试失败"),
    "es": ("fallos?",),
    "de": ("rote[nr]?\\s+build",),
    "fr": ("[ée]checs?",),
    "ja": ("失敗(?=は|が)", "テスト失敗"),
}
# A retry counted: "rerun it once", "on le relance une fois" is a policy's step, not a day's event.
_RETRY_ONCE: dict[str, tuple[str, ...]] = {
    "en": ("(?:re-?run|retr(?:y|ies|ied)|re-?trigger|relaunch|restart)\\w*\\s+(?:\\S+\\s+){0,3}?(?:once|one\\s+time)",),
    "zh": ("重(?:跑|试|新运行|新跑)(?:一次|一遍)", "(?:再)?(?:跑|试)一次"),
    "es": ("(?:relanz|reintent|repit|vuelv\\w*\\s+a\\s+lanzar)\\w*\\s+(?:\\S+\\s+){0,3}?una\\s+vez",),
    "de": ("(?:neu\\s+start|wiederhol|erneut\\s+(?:start|ausf[üu]hr|laufen))\\w*\\s+(?:\\S+\\s+){0,3}?einmal",
           "einmal\\s+(?:neu\\s+)?(?:starten|wiederholen|laufen\\s+lassen)"),
    "fr": ("(?:relanc|r[ée]essa|r[ée]ex[ée]cut)\\w*\\s+(?:\\S+\\s+){0,3}?une\\s+fois",),
    "ja": ("(?:再実行|リトライ|再試行)(?:を|は)?(?:一度|一回|1\\s?回)", "(?:一度|一回|1\\s?回)(?:だけ)?(?:再実行|リトライ|再試行)"),
}
ONE_OFF_FLAKY = Rule(
    id="one-off-flaky", reason="one-off-flaky",
    slots={"failed": _FAILED, "failure": _FAILURE, "once": _ONCE, "retry": _RETRY_ONCE},
    needs=(("failed", "once"), ("failure", "once")), masks=("retry",),
    cancel_on_negation=False,
    examples=Examples(
        match=("The auth test failed once today.", "e2e 测试今天失败了一次。", "The build timed out this morning.",
               "El test de login falló una vez hoy.", "Der Checkout-Test ist heute einmal fehlgeschlagen.",
               "Le test d'intégration a échoué une fois ce matin.", "認証テストが今日一度失敗した。"),
        benign=("The auth test is flaky on CI; rerun it once before investigating.", "When a build fails, read the first error.",
                "登录测试在 CI 上不稳定，先重跑再排查。", "跑一次 npm 就会生成让 CI 失败的锁文件。",
                "On an infrastructure failure, rerun the job once and note it in the PR.",
                "Quand un job échoue, on le relance une fois avant de chercher plus loin."),
    ),
)

_MACHINE: dict[str, tuple[str, ...]] = {
    "en": ("on\\s+my\\s+(?:machine|laptop|computer|desktop|box|mac(?:book)?|pc|workstation)",
           "my\\s+(?:checkout|clone|copy|repo|workspace|working\\s+copy)\\s+(?:is|lives|sits|is\\s+kept)",
           "(?:drive|disk)\\s+(?-i:[A-Z])(?![\\w:])", "(?<![A-Za-z])(?-i:[A-Z])\\s+drive", "external\\s+(?:drive|disk|ssd)",
           "(?:my|your|our|the\\s+user's|(?:in|under|into)\\s+(?:the\\s+)?)\\s*home\\s+(?:folder|directory|dir)",
           "(?:downloads|desktop|documents)\\s+folder", "my\\s+(?:projects|code|dev|src|work)\\s+folder",
           "(?:in|under)\\s+(?:the\\s+)?(?:projects|code|dev|work|src)\\s+folder\\s+(?:on|of)"),
    "zh": ("[A-Z]\\s?盘", "我的(?:电脑|笔记本|机器|主机|工作站|台式机)", "桌面(?:上|的|里)", "下载目录", "家目录", "主目录", "用户目录",
           "移动硬盘", "外接硬盘", "本机(?:的)?(?:目录|路径|文件夹)"),
    "es": ("en\\s+mi\\s+(?:m[aá]quina|port[aá]til|ordenador|equipo|pc)", "(?:disco|unidad)\\s+(?-i:[A-Z])(?![\\w:])",
           "(?:del|de\\s+mi|mi|el)\\s+(?:port[aá]til|ordenador)",
           "carpeta\\s+(?:de\\s+)?(?:descargas|documentos|escritorio)", "disco\\s+externo"),
    "de": ("auf\\s+meinem\\s+(?:rechner|laptop|computer|mac|pc)", "laufwerk\\s+(?-i:[A-Z])(?![\\w:])", "(?:download|dokumente)-?ordner",
           "externe[nr]?\\s+festplatte"),
    "fr": ("sur\\s+(?:ma\\s+machine|mon\\s+(?:portable|ordinateur|pc|mac))", "(?:disque|lecteur)\\s+(?-i:[A-Z])(?![\\w:])",
           "dossier\\s+(?:t[ée]l[ée]chargements|documents|bureau)", "disque\\s+externe"),
    "ja": ("[A-Z]\\s?ドライブ", "ノートPC", "私の(?:PC|マシン|ノート|パソコン)", "自分の(?:PC|マシン|パソコン)", "デスクトップ(?:フォルダ)?に",
           "ダウンロードフォルダ", "外付け"),
}
# A failure put down to a passing outside event (the registry timed out, the wifi dropped, the
# laptop slept): true once, not of the project. A cause that recurs ("sometimes", "whenever") is
# knowledge and stays.
_BLIP: dict[str, tuple[str, ...]] = {
    "en": ("(?:registry|network|wifi|wi-fi|vpn|connection|internet|proxy|dns|docker\\s+hub|npm|pypi|github|mirror|runner)(?:'s)?"
           "\\s+(?:\\S+\\s+){0,3}?(?:timed\\s+out|timing\\s+out|went\\s+down|was\\s+down|dropped|outage|hiccup|blip|died|disconnected)",
           "(?:laptop|machine|computer|mac)\\s+(?:went\\s+to\\s+sleep|going\\s+to\\s+sleep|slept|rebooted|ran\\s+out\\s+of\\s+(?:battery|disk|memory))",
           "outages?", "power\\s+cut"),
    "zh": ("断网", "网络(?:抖动|断了|超时|不稳)", "VPN\\s?断", "(?:源|镜像|仓库|registry)\\s?超时", "宕机", "停电", "电脑休眠", "睡眠"),
    "es": ("se\\s+(?:me\\s+|nos\\s+)?cay[oó]\\s+(?:el\\s+|la\\s+)?(?:wifi|internet|red|vpn|conexi[oó]n)",
           "ca[ií]das?\\s+(?:del?\\s+)?(?:wifi|internet|la\\s+red|registro|docker\\s+hub|npm)", "corte\\s+de\\s+(?:luz|red|internet)"),
    "de": ("ausfall", "ausf[äa]lle\\w*", "(?:wlan|vpn|netz|internet|verbindung)\\s+(?:war\\s+weg|ist\\s+weg|brach\\s+ab|abgebrochen|getrennt)"),
    "fr": ("panne", "coupure", "(?:wifi|vpn|r[ée]seau|connexion)\\s+(?:a\\s+)?(?:coup[ée]|saut[ée]|tomb[ée])"),
    "ja": ("VPNが切れ", "ネット(?:ワーク)?が(?:切れ|落ち)", "Wi-?Fiが切れ", "障害", "スリープ"),
}
# (a condition is a recurrence too: "if a CI failure stems from the registry, rerun once" is a policy)
_RECURRING: dict[str, tuple[str, ...]] = {
    "en": ("sometimes", "often", "occasionally", "frequently", "always", "whenever", "every\\s+time", "regularly", "tends?\\s+to",
           "keeps?", "if"),
    "zh": ("有时", "经常", "偶尔", "总是", "每次", "时不时", "如果", "的话"),
    "es": ("a\\s+veces", "a\\s+menudo", "siempre", "cada\\s+vez", "suele", "si"),
    "de": ("manchmal", "oft", "immer\\s+wieder", "jedes\\s+mal", "regelm[äa][ßs]ig", "wenn", "falls"),
    "fr": ("parfois", "souvent", "toujours", "chaque\\s+fois", "r[ée]guli[èe]rement", "quand", "lorsqu\\w*", "si"),
    "ja": ("時々", "ときどき", "よく", "たまに", "毎回", "場合(?:は|に)", "(?:とき|時)は"),
}
ONE_OFF_CAUSE = Rule(
    id="one-off-cause", reason="one-off-flaky",
    slots={"failed": _FAILED, "failure": _FAILURE, "blip": _BLIP, "recurring": _RECURRING},
    needs=(("failed", "blip", "!recurring"), ("failure", "blip", "!recurring")),
    cancel_on_negation=False,
    examples=Examples(
        match=("The build just failed because npm's registry timed out.", "A test run failed because the laptop went to sleep.",
               "El fallo fue porque se me cayó el wifi.", "Der fehlgeschlagene Build wurde durch einen Docker-Hub-Ausfall verursacht.",
               "テストの失敗はVPNが切れたことによるもの。", "构建失败是因为断网了。"),
        benign=("npm install sometimes fails when the registry times out behind the VPN; rerun it with --prefer-offline.",
                "When a build fails, read the first error.", "构建有时因为镜像源超时失败，重跑即可。",
                "If a build fails because the registry timed out, wait ten minutes and rerun it."),
    ),
)

MACHINE_LAYOUT = Rule(
    id="machine-layout", reason="machine-layout",
    slots={"machine": _MACHINE}, needs=(("machine",),), cancel_on_negation=False,
    examples=Examples(
        match=("代码在 D 盘 work 目录下。", "我的代码放在桌面的 projects 文件夹里。", "My clone is in the Projects folder on my laptop.", "The repo sits on the D drive.",
               "Tengo el repo en la carpeta de Descargas.", "Das Repo liegt auf meinem Laptop im Download-Ordner.",
               "Le dépôt est sur le disque D.", "リポジトリはDドライブに置いてある。"),
        benign=("Generated code lives in src/gen/.", "生成的代码放在 src/gen/ 目录。", "Build artefacts go to dist/."),
    ),
)

_OUTSIDE: dict[str, tuple[str, ...]] = {
    "any": ("(?<![\\w./\\\\'\"`-])(?:\\.\\.[\\\\/])+[\\w.-]+", "(?:sibling|neighbou?ring)\\s+(?:repo(?:sitory)?|checkout|clone)",
            "next\\s+to\\s+(?:this|the)\\s+(?:repo(?:sitory)?|checkout|project\\s+folder)", "旁边的(?:仓库|目录)", "同级目录"),
}
OUTSIDE_PATH = Rule(
    id="outside-path", reason="outside-path",
    slots={"outside": _OUTSIDE}, needs=(("outside",),), cancel_on_negation=False,
    examples=Examples(
        match=("Test fixtures come from ../data-repo.", "共享配置在 ../../shared-configs 里。",
               "Clone the sibling repo for the fixtures."),
        benign=("Fixtures live in tests/fixtures/.", "测试数据放在 tests/data/。",
                "Import helpers with `import { x } from '../utils'` in components."),
    ),
)

RULES = (TEMPORARY_PIN, ONE_OFF_FLAKY, ONE_OFF_CAUSE, MACHINE_LAYOUT, OUTSIDE_PATH)
