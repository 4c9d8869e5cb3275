import json
C = []
def conv(name, store, covers, turns, expect, lang=None):
    c = {"name": "co7-" + name, "store": store, "covers": covers, "turns": turns, "expect": expect}
    if lang: c["lang"] = lang
    C.append(c)
def order(store, cur, items, **kw):
    return {"store": store, "currency": cur, "items": items, **kw}
CE, TR, MI, LU, EB = "store_ceramics", "store_trattoria", "store_midori", "store_lumen_studio", "store_ebooks"
GLAZE = ["item_limited_glaze_mug", 1]
# ---- CHECKOUT words
conv("en-thats-all-with-address", CE, ["checkout", "address"],
     ["add the limited edition glaze mug", "that's all, ship it to 400 Elm St, Austin, TX 78701"],
     {"orders": [order(CE, "USD", [GLAZE], addressHas=["400 Elm St", "Austin", "78701"])]})
conv("en-im-done-send-plates", CE, ["checkout", "address"],
     ["I'd like two dinner plates", "I'm done. Send them to 12 Oak St, Portland, OR 97202"],
     {"orders": [order(CE, "USD", [["item_stoneware_dinner_plate", 2]], addressHas=["12 Oak St", "97202"])]})
conv("en-place-the-order-canada", CE, ["checkout", "address"],
     ["put a glaze mug in my cart", "place the order please, deliver to 88 King St W, Toronto, ON M5H 1J9"],
     {"orders": [order(CE, "USD", [GLAZE], addressHas=["88 King St W", "Toronto", "M5H 1J9"])]})
conv("en-thats-everything-pickup", TR, ["checkout", "pickup"],
     ["add two arancini", "and a tiramisu", "that's everything, I'll pick it up"],
     {"orders": [order(TR, "USD", [["item_arancini", 2], ["item_tiramisu", 1]])]})
conv("en-buy-it-now-after-details", LU, ["buy-now", "address"],
     ["tell me about the cork yoga mat", "buy it now and post it to 48 Columbia Road, London E2 7NN"],
     {"orders": [order(LU, "GBP", [["item_cork_yoga_mat", 1]], addressHas=["48 Columbia Road", "E2 7NN"])]})
conv("fr-je-valide-je-passe-le-chercher", TR, ["checkout", "pickup"],
     ["je voudrais deux arancini", "je valide, je passe le chercher"],
     {"orders": [order(TR, "USD", [["item_arancini", 2]])]}, lang="fr")
conv("fr-passer-commande-a-emporter", TR, ["checkout", "pickup"],
     ["ajoute un tiramisu et une lasagne bolognese", "je veux passer commande, à emporter"],
     {"orders": [order(TR, "USD", [["item_tiramisu", 1], ["item_lasagna_bolognese", 1]])]}, lang="fr")
conv("ja-kaikei-onegai-address", MI, ["checkout", "address"],
     ["八女玉露を2つカートに入れて", "会計お願いします。送り先は〒110-0001 東京都台東区谷中3-12-7"],
     {"orders": [order(MI, "JPY", [["item_yame_gyokuro", 2]], addressHas=["東京都台東区谷中3-12-7"])]}, lang="ja")
conv("ja-chuumon-shimasu", MI, ["checkout", "address"],
     ["茶筅をカートに入れてください", "注文します。住所は東京都渋谷区神南1-2-3です"],
     {"orders": [order(MI, "JPY", [["item_chasen_whisk", 1]], addressHas=["東京都渋谷区神南1-2-3"])]}, lang="ja")
# ---- not yet
conv("en-dont-check-out-yet", CE, ["checkout"],
     ["add the celadon teapot", "don't check out yet, I'm still browsing"],
     {"carts": {CE: [["item_celadon_teapot", 1]]}})
conv("en-not-ready-to-order", TR, ["checkout"],
     ["add the lasagna bolognese", "I'm not ready to place the order yet"],
     {"carts": {TR: [["item_lasagna_bolognese", 1]]}})
conv("fr-ne-valide-pas-encore", TR, ["checkout"],
     ["ajoute un tiramisu", "ne passe pas encore la commande"],
     {"carts": {TR: [["item_tiramisu", 1]]}}, lang="fr")
conv("ja-mada-chuumon-shinaide", MI, ["checkout"],
     ["ほうじ茶を2つカートに入れて", "まだ注文しないでください"],
     {"carts": {MI: [["item_kaga_hojicha", 2]]}}, lang="ja")
conv("en-not-yet-then-checkout", CE, ["checkout", "address"],
     ["add two dinner plates", "not yet, I might add more", "ok now check out, 12 Oak St, Portland, OR 97202"],
     {"orders": [order(CE, "USD", [["item_stoneware_dinner_plate", 2]], addressHas=["12 Oak St"])]})
# ---- refusal then yes
conv("en-refuse-then-sounds-good", CE, ["checkout", "address"],
     ["add 2 glaze mugs", {"say": "check out, ship to 400 Elm St, Austin, TX 78701", "approve": False},
      "ok sounds good, go ahead"],
     {"orders": [order(CE, "USD", [["item_limited_glaze_mug", 2]], addressHas=["400 Elm St"])]})
conv("en-refuse-then-thumbs", CE, ["checkout"],
     ["add the pour-over dripper", {"say": "place my order, send to 12 Oak St, Portland, OR 97202", "approve": False},
      "👍"],
     {"orders": [order(CE, "USD", [["item_pour_over_dripper", 1]])]})
conv("en-refuse-then-sure", LU, ["checkout"],
     ["add the cork yoga mat", {"say": "checkout, 10 Downing Street, London SW1A 2AA", "approve": False},
      "hmm... sure, do it"],
     {"orders": [order(LU, "GBP", [["item_cork_yoga_mat", 1]])]})
conv("fr-refus-puis-ca-marche", TR, ["checkout", "pickup"],
     ["ajoute deux arancini", {"say": "je valide, à emporter", "approve": False}, "bon, ça marche, vas-y"],
     {"orders": [order(TR, "USD", [["item_arancini", 2]])]}, lang="fr")
conv("ja-refuse-then-onegai", MI, ["checkout"],
     ["八女玉露を1つ", {"say": "会計お願いします。送り先は東京都台東区谷中3-12-7", "approve": False},
      "やっぱりお願いします"],
     {"orders": [order(MI, "JPY", [["item_yame_gyokuro", 1]])]}, lang="ja")
conv("en-hold-on-refuses-offer", CE, ["checkout"],
     ["add two dinner plates", {"say": "check out, 12 Oak St, Portland, OR 97202", "approve": False},
      "hold on", "no wait, I want to think"],
     {"carts": {CE: [["item_stoneware_dinner_plate", 2]]}})
conv("ja-chotto-matte", MI, ["checkout"],
     ["茶筅を1つカートに入れて", {"say": "会計お願いします。送り先は東京都渋谷区神南1-2-3", "approve": False},
      "ちょっと待って"],
     {"carts": {MI: [["item_chasen_whisk", 1]]}}, lang="ja")
conv("fr-attends-puis-ok", TR, ["checkout"],
     ["ajoute un tiramisu et deux arancini", {"say": "passer commande", "approve": False}, "attends",
      "ok c'est bon, vas-y"],
     {"orders": [order(TR, "USD", [["item_tiramisu", 1], ["item_arancini", 2]])]}, lang="fr")
# ---- one message
conv("en-one-message-plates-code-lower", CE, ["buy-now", "address", "promotion"],
     [{"say": "I want 2 dinner plates shipped to Jane Doe, 400 Pine St Apt 5, Seattle, WA 98101, code fiveoff",
       "prompt": {"has": ["Discount"], "not": ["Jane"]}}],
     {"orders": [order(CE, "USD", [["item_stoneware_dinner_plate", 2]], total="39.00",
                       addressHas=["400 Pine St", "Apt 5", "Seattle", "98101"])]})
conv("fr-one-message-rust-lyon", EB, ["buy-now", "address", "promotion"],
     ["Je voudrais commander Practical Rust, livraison au 12 rue de la République, 69002 Lyon, avec le code folio3"],
     {"orders": [order(EB, "EUR", [["item_rust_book_bundle", 1]], total="41.00",
                       addressHas=["12 rue de la République", "69002", "Lyon"])]}, lang="fr")
conv("ja-one-message-chasen-code", MI, ["buy-now", "address", "promotion"],
     ["茶筅を2つ注文します。送り先は〒150-0041 東京都渋谷区神南1-2-3、クーポンはMIDORI500です"],
     {"orders": [order(MI, "JPY", [["item_chasen_whisk", 2]], total="6500",
                       addressHas=["東京都渋谷区神南1-2-3"])]}, lang="ja")
conv("en-one-message-feasts-pickup-code", TR, ["buy-now", "pickup", "promotion"],
     ["two family feasts for pickup please, use code pizzafriday"],
     {"orders": [order(TR, "USD", [["item_family_feast", 2]], total="105.40")]})
# ---- addresses
conv("en-address-with-name-and-apartment", CE, ["checkout", "address"],
     ["buy the celadon teapot",
      {"say": "please send it to my sister Maria Lopez at 221 W 4th Ave Apt 12B, Anchorage, AK 99501, she'll love it",
       "prompt": {"has": ["221 W 4th Ave"], "not": ["sister", "love"]}}],
     {"orders": [order(CE, "USD", [["item_celadon_teapot", 1]], addressHas=["221 W 4th Ave", "12B", "Anchorage", "99501"])]})
conv("en-address-canada-unit", CE, ["checkout", "address"],
     ["add a glaze mug", "check out, it goes to 1200 Bay Street, Unit 804, Toronto, Ontario M5R 2A5 thanks"],
     {"orders": [order(CE, "USD", [GLAZE], addressHas=["1200 Bay Street", "Unit 804", "Toronto", "M5R 2A5"])]})
conv("en-address-uk-flat", LU, ["buy-now", "address"],
     [{"say": "I'll take the cork yoga mat, post it to Flat 2, 14 Elm Grove, Manchester M14 6PF please",
       "prompt": {"has": ["14 Elm Grove"], "not": ["please", "take the"]}}],
     {"orders": [order(LU, "GBP", [["item_cork_yoga_mat", 1]], addressHas=["Flat 2", "14 Elm Grove", "Manchester", "M14 6PF"])]})
conv("fr-address-paris", EB, ["checkout", "address"],
     ["ajoute The Shape of Letters au panier", "commande-le et envoie-le au 8 avenue Jean Jaurès, 75019 Paris, merci"],
     {"orders": [order(EB, "EUR", [["item_signed_typography_hardcover", 1]], addressHas=["8 avenue Jean Jaurès", "75019", "Paris"])]}, lang="fr")
conv("ja-address-osaka-room", MI, ["checkout", "address"],
     ["和紙ノートを2冊カートに入れて", "注文お願いします。〒530-0001 大阪府大阪市北区梅田1-2-3 梅田ビル502号室 山田太郎宛"],
     {"orders": [order(MI, "JPY", [["item_washi_notebook", 2]], addressHas=["大阪府大阪市北区梅田1-2-3", "502"])]}, lang="ja")
conv("en-address-street-only-asks-city", CE, ["checkout", "address"],
     ["add a glaze mug", {"say": "check out, ship to 400 Elm St", "reply": {"has": ["city", "zip", "postcode", "postal"]}},
      "Austin, TX 78701"],
     {"orders": [order(CE, "USD", [GLAZE], addressHas=["400 Elm St", "Austin", "78701"])]})
conv("en-address-first-then-item", CE, ["checkout", "address"],
     ["my address is 400 Elm St, Austin, TX 78701", "add a glaze mug", "check out"],
     {"orders": [order(CE, "USD", [GLAZE], addressHas=["400 Elm St", "78701"])]})
conv("en-address-lowercase-no-commas", CE, ["checkout", "address"],
     ["add the pour-over dripper", "ok checkout. ship it to 400 elm street austin tx 78701"],
     {"orders": [order(CE, "USD", [["item_pour_over_dripper", 1]], addressHas=["400 elm street", "austin", "78701"])]})
conv("en-address-country-outside-areas", LU, ["checkout", "address"],
     ["add the cork yoga mat", {"say": "check out, 5 George St, Sydney NSW 2000, Australia", "reply": {"has": ["Australia"]}},
      "ok, send it to 14 Elm Grove, Manchester M14 6PF instead"],
     {"orders": [order(LU, "GBP", [["item_cork_yoga_mat", 1]], addressHas=["14 Elm Grove", "M14 6PF"])]})
# ---- pickup vs delivery
conv("en-margherita-takeaway", TR, ["add", "pickup", "customizations"],
     ["a 12 inch margherita, takeaway please", "that's it"],
     {"orders": [order(TR, "USD", [["item_pizza_margherita", 1, {"customizations": {"group_margherita_size": "opt_margherita_size_12in"}}]])]})
conv("fr-diavola-a-emporter", TR, ["add", "pickup", "customizations"],
     ["une diavola 16 pouces à emporter", "c'est tout"],
     {"orders": [order(TR, "USD", [["item_pizza_diavola", 1, {"customizations": {"group_diavola_size": "opt_diavola_size_16in"}}]])]}, lang="fr")
conv("ja-tento-uketori-no-pickup", MI, ["checkout", "pickup", "address"],
     ["八女玉露を1つカートに入れて", "店頭で受け取りたいです", "じゃあ東京都台東区谷中3-12-7に送ってください"],
     {"orders": [order(MI, "JPY", [["item_yame_gyokuro", 1]], addressHas=["東京都台東区谷中3-12-7"])]}, lang="ja")
conv("en-collect-seconds-box", CE, ["buy-now", "pickup"],
     ["grab me a studio seconds box, I'll collect it at the Portland studio"],
     {"orders": [order(CE, "USD", [["item_studio_seconds_box", 1]])]})
conv("en-physical-pickup-then-ship", CE, ["checkout", "pickup", "address"],
     ["add a glaze mug", {"say": "I'll pick it up", "reply": {"has": ["deliver", "ship", "address"]}},
      "fine, ship it to 12 Oak St, Portland, OR 97202"],
     {"orders": [order(CE, "USD", [GLAZE], addressHas=["12 Oak St"])]})
# ---- times
conv("en-book-vinyasa-monday-evening", LU, ["book", "scheduled"],
     ["book me the vinyasa drop-in class on Monday at 6:30pm"],
     {"orders": [order(LU, "GBP", [["item_vinyasa_drop_in", 1]], slots=["slot_vinyasa_20270111_1830"])]})
conv("en-book-private-booked-then-other", LU, ["book", "scheduled"],
     ["I want a private yoga session on thursday at 5pm", "ok saturday at 11 then"],
     {"orders": [order(LU, "GBP", [["item_private_yoga_session", 1]], slots=["slot_private_yoga_20270116_1100"])]})
conv("fr-reserver-vinyasa-lundi-18h30", LU, ["book", "scheduled"],
     ["je voudrais réserver le cours de vinyasa lundi 18h30"],
     {"orders": [order(LU, "GBP", [["item_vinyasa_drop_in", 1]], slots=["slot_vinyasa_20270111_1830"])]}, lang="fr")
conv("ja-ceremony-march-13-14", MI, ["book", "scheduled"],
     ["茶道体験を3月13日の14時で予約したいです"],
     {"orders": [order(MI, "JPY", [["item_tea_ceremony_workshop", 1]], slots=["slot_ceremony_20270313_1400"])]}, lang="ja")
conv("en-vinyasa-wednesday-morning", LU, ["book", "scheduled"],
     ["can I book the vinyasa class wednesday morning?"],
     {"orders": [order(LU, "GBP", [["item_vinyasa_drop_in", 1]], slots=["slot_vinyasa_20270113_0700"])]})
conv("ja-ceremony-booked-then-other", MI, ["book", "scheduled"],
     ["4月3日の14時に茶道体験を予約してください", "じゃあ4月4日の10時でお願いします"],
     {"orders": [order(MI, "JPY", [["item_tea_ceremony_workshop", 1]], slots=["slot_ceremony_20270404_1000"])]}, lang="ja")
conv("en-headshot-refused-slot-then-other", LU, ["book", "scheduled"],
     ["book the headshot mini session at 12pm on February 8",
      {"say": "place it", "approve": False}, "hmm, make it 1pm instead"],
     {"orders": [order(LU, "GBP", [["item_headshot_mini_session", 1]], slots=["slot_headshot_20270208_1300"])]})
# ---- codes
conv("en-code-lowercase-then-checkout", CE, ["promotion", "checkout"],
     ["add two dinner plates", "use code welcome10", "check out to 12 Oak St, Portland, OR 97202"],
     {"orders": [order(CE, "USD", [["item_stoneware_dinner_plate", 2]], total="39.60")]})
conv("en-code-with-space", CE, ["promotion", "checkout"],
     ["add two dinner plates", "my promo code is WELCOME 10", "check out to 12 Oak St, Portland, OR 97202"],
     {"orders": [order(CE, "USD", [["item_stoneware_dinner_plate", 2]], total="39.60")]})
conv("en-code-expired-then-other", CE, ["promotion", "checkout"],
     ["add two dinner plates", {"say": "apply SUMMER2020", "reply": {"has": ["expired", "no longer"]}},
      "ok then use FIVEOFF", "check out to 12 Oak St, Portland, OR 97202"],
     {"orders": [order(CE, "USD", [["item_stoneware_dinner_plate", 2]], total="39.00")]})
conv("en-code-below-minimum-then-met", TR, ["promotion", "checkout", "pickup"],
     ["add a tiramisu", {"say": "use code PIZZAFRIDAY", "reply": {"has": ["30"]}},
      "add a family feast too", "now apply pizzafriday and check out, I'll pick up"],
     {"orders": [order(TR, "USD", [["item_tiramisu", 1], ["item_family_feast", 1]], total="60.35")]})
conv("en-two-codes-stacking", EB, ["promotion", "checkout"],
     ["add Practical Rust", "use codes READMORE15 and FOLIO3",
      {"say": "check out, ship to Oranienstraße 10, 10999 Berlin", "prompt": {"has": ["Discount"]}}],
     {"orders": [order(EB, "EUR", [["item_rust_book_bundle", 1]], addressHas=["Oranienstraße 10", "10999"])]})
conv("en-vague-coupon-asks", CE, ["promotion", "checkout"],
     ["add two dinner plates", {"say": "I have a coupon somewhere, check out to 12 Oak St, Portland, OR 97202",
                                "reply": {"has": ["code"]}}, "it's fiveoff"],
     {"orders": [order(CE, "USD", [["item_stoneware_dinner_plate", 2]], total="39.00")]})
conv("fr-code-minuscule", TR, ["promotion", "checkout", "pickup"],
     ["ajoute une lasagne bolognese", "j'ai un code promo : dolce4", "je valide, je viens la chercher"],
     {"orders": [order(TR, "USD", [["item_lasagna_bolognese", 1]], total="17.00")]}, lang="fr")
conv("ja-code-below-minimum", MI, ["promotion", "checkout"],
     ["八女玉露を1つカートに入れて", {"say": "クーポンocha10を使いたい", "reply": {"has": ["3,000", "3000"]}},
      "茶筅も1つ追加して", "クーポンOCHA10で会計お願いします。送り先は東京都台東区谷中3-12-7"],
     {"orders": [order(MI, "JPY", [["item_yame_gyokuro", 1], ["item_chasen_whisk", 1]], total="5490")]}, lang="ja")
json.dump(C, open("tests/conversations/checkout_round7.json", "w"), ensure_ascii=False, indent=1)
print(len(C))
