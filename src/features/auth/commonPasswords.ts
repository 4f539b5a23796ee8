// The passwords tried first by every guessing script: the top of public leak lists (global and
// Chinese sites: CSDN, 天涯, 12306 …). Compared lower-cased. Short on purpose: the aim is to refuse
// what an attacker's first hundred guesses would find, not to judge strength.
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  "123456", "1234567", "12345678", "123456789", "1234567890", "0123456789", "12345", "654321", "987654321",
  "111111", "000000", "222222", "333333", "444444", "555555", "666666", "777777", "888888", "999999",
  "11111111", "00000000", "88888888", "66666666", "1111111", "123123", "123321", "112233", "121212",
  "123123123", "123654", "147258", "147258369", "159357", "159753", "741852963", "789456", "789456123",
  "456789", "123789", "135790", "520520", "521521", "5201314", "1314520", "1314521", "woaini", "woaini1314",
  "woaini520", "woaini521", "iloveyou", "iloveyou1", "password", "password1", "password123", "passw0rd",
  "p@ssw0rd", "p@ssword", "qwerty", "qwerty123", "qwertyuiop", "qweasd", "qweasdzxc", "qwe123", "asdasd",
  "asdfgh", "asdfghjkl", "asd123", "zxcvbn", "zxcvbnm", "1qaz2wsx", "1q2w3e", "1q2w3e4r", "1q2w3e4r5t",
  "q1w2e3r4", "abc123", "abc123456", "abcd1234", "abcdef", "abcdefg", "a123456", "a12345678", "aa123456",
  "a1b2c3", "a1234567", "123456a", "123456aa", "123abc", "admin", "admin123", "admin888", "administrator",
  "root", "root123", "toor", "test", "test123", "test1234", "guest", "user", "user123", "welcome",
  "welcome1", "letmein", "monkey", "dragon", "master", "shadow", "sunshine", "princess", "football",
  "baseball", "superman", "batman", "trustno1", "starwars", "whatever", "freedom", "michael", "charlie",
  "jennifer", "jordan23", "hello", "hello123", "hellokitty", "loveme", "lovely", "iloveu", "love1314",
  "aaaaaa", "aaaaaaaa", "abc", "qq123456", "qq123456789", "wang123", "zhang123", "li123456", "woshishui",
  "wocaonima", "caonima", "nihao", "nihao123", "zhongguo", "china", "china123", "beijing", "shanghai",
  "baidu", "baidu123", "taobao", "wenku", "wenku123", "moredoc", "changeme", "secret", "secret123",
  "666888", "168168", "118118", "168888", "888666", "123qwe", "qwe123456", "1234qwer", "qwer1234",
  "1234abcd", "asdf1234", "zaq12wsx", "!qaz2wsx", "1qazxsw2", "12qwaszx", "q1w2e3", "111222", "112233445566",
]);
