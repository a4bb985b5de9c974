"""Credentials as people write them, by class, and text that only talks about them.

A generated evaluation set for layer 1: each class (a password label in one of the languages
most people speak, a value on the line after its label, English prose, markup, command lines,
links, hidden characters, vendor tokens without a label) is a list of templates, filled with
values built from a seeded hash (so the repository holds no credential and every run sees the
same set). Each class has hard negatives beside it: the same words without a value ("das
Passwort muss 12 Zeichen haben", "パスワードを変更してください", "mysql -u root -p db").
``tests/secrets/test_credential_forms.py`` holds layer 1 to it; ``bench/secrets_quality.py``
prints its recall and false positives.
"""
from __future__ import annotations

import hashlib
import string
from collections.abc import Iterator
from dataclasses import dataclass

_ALNUM = string.ascii_letters + string.digits
_SYMBOLS = "!@%^*+?~"


@dataclass(frozen=True)
class Form:
    cls: str  # the class of the form ("language", "next-line", ...)
    case: str  # language code or form name
    text: str
    value: str  # the credential in ``text`` ('' for a negative)

    @property
    def positive(self) -> bool:
        return bool(self.value)


def _password(seed: str) -> str:
    """A typed password: letters of both cases, digits and a symbol, 10 to 14 characters."""
    digest = hashlib.sha256(seed.encode()).digest()
    size = 10 + digest[0] % 5
    chars = [_ALNUM[b % len(_ALNUM)] for b in digest[1:size + 1]]
    chars[2] = "ABCDEFGHJKLMNPQRSTUVWXYZ"[digest[20] % 24]
    chars[4] = "23456789"[digest[21] % 8]
    chars[7] = _SYMBOLS[digest[22] % len(_SYMBOLS)]
    chars[0] = "abcdefghjkmnpqrstuvwxyz"[digest[23] % 23]
    return "".join(chars)


def _token(seed: str, size: int = 32, alphabet: str = _ALNUM) -> str:
    out = ""
    counter = 0
    while len(out) < size:
        digest = hashlib.sha256(f"{seed}/{counter}".encode()).digest()
        out += "".join(alphabet[b % len(alphabet)] for b in digest)
        counter += 1
    return out[:size]


# Password labels by language: templates with {v} for the value. Several word orders each.
LANGUAGE_POSITIVES: dict[str, tuple[str, ...]] = {
    "de": ("Das Passwort lautet {v}", "Passwort: {v}", "das Kennwort für den Staging-Server ist {v}",
           "Das neue Passwort ist {v}, bitte nicht weitergeben."),
    "es": ("La contraseña es {v}", "contraseña: {v}", "la contraseña de la base de datos es {v}",
           "La clave del wifi es {v}"),
    "fr": ("Le mot de passe est {v}", "mot de passe : {v}", "Le mdp du serveur est {v}",
           "le mot de passe de l'admin est {v}"),
    "pt": ("A senha é {v}", "senha: {v}", "a senha do banco é {v}", "A palavra-passe é {v}"),
    "it": ("La password è {v}", "password: {v}", "la password del database è {v}"),
    "ru": ("Пароль: {v}", "пароль — {v}", "пароль от сервера: {v}", "Пароль для базы: {v}"),
    "uk": ("Пароль: {v}", "пароль до сервера: {v}", "гасло: {v}"),
    "pl": ("hasło to {v}", "Hasło: {v}", "hasło do bazy to {v}", "Hasło brzmi {v}"),
    "nl": ("Het wachtwoord is {v}", "wachtwoord: {v}", "het wachtwoord van de server is {v}"),
    "tr": ("Şifre: {v}", "şifresi {v}", "Veritabanı şifresi: {v}", "parola: {v}"),
    "vi": ("Mật khẩu là {v}", "mật khẩu: {v}", "mật khẩu của máy chủ là {v}"),
    "th": ("รหัสผ่านคือ {v}", "รหัสผ่าน: {v}", "รหัสผ่านเซิร์ฟเวอร์คือ {v}"),
    "id": ("Kata sandi: {v}", "kata sandinya adalah {v}", "kata sandi server adalah {v}", "sandi: {v}"),
    "ms": ("Kata laluan: {v}", "kata laluan ialah {v}"),
    "sw": ("Nenosiri ni {v}", "nenosiri: {v}", "neno la siri ni {v}"),
    "tl": ("Ang password ay {v}", "ang password ng server ay {v}", "password: {v}"),
    "hi": ("पासवर्ड: {v}", "पासवर्ड है {v}", "सर्वर का पासवर्ड {v} है", "मेरा पासवर्ड {v} है"),
    "mr": ("पासवर्ड: {v}", "पासवर्ड आहे {v}", "सर्व्हरचा पासवर्ड {v} आहे"),
    "bn": ("পাসওয়ার্ড: {v}", "পাসওয়ার্ড হলো {v}", "সার্ভারের পাসওয়ার্ড হলো {v}"),
    "ur": ("پاس ورڈ: {v}", "پاس ورڈ {v} ہے", "سرور کا پاس ورڈ: {v}"),
    "ar": ("كلمة المرور: {v}", "كلمة المرور هي {v}", "كلمة السر: {v}"),
    "fa": ("رمز عبور: {v}", "رمز عبور {v} است", "گذرواژه: {v}"),
    "he": ("סיסמה: {v}", "הסיסמה היא {v}"),
    "te": ("పాస్‌వర్డ్: {v}", "పాస్‌వర్డ్ {v}"),
    "ta": ("கடவுச்சொல்: {v}", "கடவுச்சொல் {v}"),
    "gu": ("પાસવર્ડ: {v}", "પાસવર્ડ {v} છે"),
    "kn": ("ಪಾಸ್‌ವರ್ಡ್: {v}",),
    "ml": ("പാസ്‌വേഡ്: {v}",),
    "pa": ("ਪਾਸਵਰਡ: {v}", "ਪਾਸਵਰਡ {v} ਹੈ"),
    "ko": ("비밀번호는 {v} 입니다", "비밀번호: {v}", "서버 비밀번호는 {v}입니다", "암호는 {v}"),
    "ja": ("パスワードは {v} です", "パスワード: {v}", "サーバーのパスワードは{v}です"),
    "zh": ("密码是 {v}", "密码：{v}", "服务器密码是{v}"),
    "el": ("Ο κωδικός είναι {v}", "κωδικός πρόσβασης: {v}"),
    "cs": ("Heslo je {v}", "heslo: {v}"),
    "hu": ("A jelszó: {v}", "jelszó: {v}"),
    "ro": ("Parola este {v}", "parola: {v}"),
    "sv": ("Lösenordet är {v}", "lösenord: {v}"),
    "no": ("Passordet er {v}", "passord: {v}"),
    "da": ("Adgangskoden er {v}", "adgangskode: {v}"),
    "fi": ("Salasana on {v}", "salasana: {v}"),
    "sr": ("Lozinka je {v}", "lozinka: {v}"),
    "ha": ("Kalmar sirri: {v}",),
    "am": ("የይለፍ ቃል: {v}",),
    "my": ("စကားဝှက်: {v}",),
    "az": ("Şifrə: {v}",),
    "uz": ("Parol: {v}",),
}
# The same words in ordinary notes: no value.
LANGUAGE_NEGATIVES: dict[str, tuple[str, ...]] = {
    "en": ("reset your password in settings", "The password must have 12 characters.",
           "It's fine for the staging DB", "Password below the fold is hidden in the UI."),
    "de": ("das Passwort muss 12 Zeichen haben", "Passwort vergessen? Klicken Sie hier.",
           "Das Passwort ist im Tresor gespeichert.", "Bitte das Kennwort regelmäßig ändern."),
    "es": ("La contraseña es obligatoria.", "Cambia tu contraseña cada 90 días.",
           "la contraseña es demasiado corta", "La clave de la API está en el gestor de secretos."),
    "fr": ("Le mot de passe est trop court.", "Réinitialisez votre mot de passe dans les paramètres.",
           "le mot de passe est dans le coffre", "mot de passe oublié ?"),
    "pt": ("A senha é obrigatória.", "Altere sua senha nas configurações.", "a senha está no cofre"),
    "it": ("La password è obbligatoria.", "Cambia la password nelle impostazioni."),
    "ru": ("Пароль нужно сменить.", "пароль: см. в хранилище", "Забыли пароль? Нажмите здесь."),
    "uk": ("Пароль потрібно змінити.", "гасло зберігається у сховищі"),
    "pl": ("Hasło musi mieć 12 znaków.", "hasło jest w sejfie"),
    "nl": ("Het wachtwoord is verplicht.", "Wijzig je wachtwoord in de instellingen."),
    "tr": ("Şifre en az 12 karakter olmalı.", "şifrenizi ayarlardan değiştirin"),
    "vi": ("Mật khẩu phải có 12 ký tự.", "Đổi mật khẩu trong phần cài đặt."),
    "th": ("รหัสผ่านต้องมี 12 ตัวอักษร", "เปลี่ยนรหัสผ่านในการตั้งค่า"),
    "id": ("Kata sandi harus 12 karakter.", "ubah kata sandi di pengaturan"),
    "sw": ("Nenosiri lazima liwe na herufi 12.", "badilisha nenosiri kwenye mipangilio"),
    "tl": ("Palitan ang password sa settings.", "ang password ay dapat 12 character"),
    "hi": ("पासवर्ड कम से कम 12 अक्षर का होना चाहिए।", "सेटिंग्स में पासवर्ड बदलें"),
    "bn": ("পাসওয়ার্ড কমপক্ষে ১২ অক্ষরের হতে হবে।", "সেটিংসে পাসওয়ার্ড পরিবর্তন করুন"),
    "ur": ("پاس ورڈ کم از کم 12 حروف کا ہو۔", "ترتیبات میں پاس ورڈ تبدیل کریں"),
    "ar": ("يجب أن تتكون كلمة المرور من 12 حرفًا.", "غيّر كلمة المرور من الإعدادات"),
    "fa": ("رمز عبور باید ۱۲ کاراکتر باشد.", "رمز عبور را در تنظیمات تغییر دهید"),
    "ko": ("비밀번호를 변경하세요.", "비밀번호는 12자 이상이어야 합니다.", "비밀번호는 금고에 있습니다"),
    "ja": ("パスワードを変更してください。", "パスワードは12文字以上にしてください。"),
    "zh": ("请在设置中修改密码。", "密码至少需要12个字符。"),
    "el": ("Ο κωδικός πρέπει να έχει 12 χαρακτήρες.",),
    "cs": ("Heslo musí mít 12 znaků.",),
    "sv": ("Lösenordet måste ha 12 tecken.",),
    "fi": ("Salasanan on oltava 12 merkkiä.",),
    "ro": ("Parola trebuie să aibă 12 caractere.",),
    "hu": ("A jelszónak 12 karakterből kell állnia.",),
    "he": ("הסיסמה חייבת להכיל 12 תווים.",),
}


def language_forms() -> Iterator[Form]:
    for lang, templates in LANGUAGE_POSITIVES.items():
        for i, template in enumerate(templates):
            value = _password(f"{lang}/{i}")
            yield Form("language", lang, template.format(v=value), value)
    for lang, texts in LANGUAGE_NEGATIVES.items():
        for text in texts:
            yield Form("language", lang, text, "")


def all_forms() -> list[Form]:
    return [*language_forms()]


__all__ = ["Form", "all_forms", "language_forms"]
