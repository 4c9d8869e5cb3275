import json
C = []
def conv(name, store, covers, turns, expect, lang=None):
    c = {"name": "co7u-" + name, "store": store, "covers": covers, "turns": turns, "expect": expect}
    if lang: c["lang"] = lang
    C.append(c)
def order(store, cur, items, **kw):
    return {"store": store, "currency": cur, "items": items, **kw}
CE, TR, MI, LU, EB = "store_ceramics", "store_trattoria", "store_midori", "store_lumen_studio", "store_ebooks"
conv("en-wrap-it-up", CE, ["checkout", "address"],
     ["throw a limited glaze mug in the cart", "alright, wrap it up — it's going to Tom Reed, 77 Birch Lane, Apt 9, Denver, CO 80203"],
     {"orders": [order(CE, "USD", [["item_limited_glaze_mug", 1]], addressHas=["77 Birch Lane", "Apt 9", "Denver", "80203"])]})
conv("en-finalize-grab-it-myself", TR, ["checkout", "pickup"],
     ["could I get three arancini?", "let's finalize it, I'll swing by and grab it myself"],
     {"orders": [order(TR, "USD", [["item_arancini", 3]])]})
conv("fr-cest-bon-pour-moi", TR, ["checkout", "pickup"],
     ["mettez-moi un tiramisu", "c'est bon pour moi, je récupère sur place"],
     {"orders": [order(TR, "USD", [["item_tiramisu", 1]])]}, lang="fr")
conv("ja-kore-de-onegai", MI, ["checkout", "address"],
     ["ほうじ茶を2つと茶筅を1つカートに入れて", "これでお願いします。〒110-0001 東京都台東区谷中3-12-7 に配達して"],
     {"orders": [order(MI, "JPY", [["item_kaga_hojicha", 2], ["item_chasen_whisk", 1]], addressHas=["東京都台東区谷中3-12-7"])]}, lang="ja")
conv("en-hang-on-then-yep", CE, ["checkout"],
     ["add the pour-over dripper", {"say": "checkout, 9 Lake Rd, Madison, WI 53703", "approve": False},
      "hang on a sec", "yep, all good now"],
     {"orders": [order(CE, "USD", [["item_pour_over_dripper", 1]], addressHas=["9 Lake Rd", "53703"])]})
conv("en-one-message-vancouver", CE, ["buy-now", "address", "promotion"],
     ["please order 2 dinner plates to 555 W Hastings St, Suite 300, Vancouver, BC V6B 4N6 and apply the code Welcome10"],
     {"orders": [order(CE, "USD", [["item_stoneware_dinner_plate", 2]], total="39.60",
                       addressHas=["555 W Hastings St", "Vancouver", "V6B 4N6"])]})
conv("fr-adresse-bordeaux", EB, ["checkout", "address"],
     ["je prends le livre Practical Rust", "validez la commande, c'est pour Marie Dupont, 3 place de la Bourse, 33000 Bordeaux"],
     {"orders": [order(EB, "EUR", [["item_rust_book_bundle", 1]], addressHas=["3 place de la Bourse", "33000", "Bordeaux"])]}, lang="fr")
conv("en-private-session-sunday-late-morning", LU, ["book", "scheduled"],
     ["reserve a private yoga session for sunday at 11am please"],
     {"orders": [order(LU, "GBP", [["item_private_yoga_session", 1]], slots=["slot_private_yoga_20270117_1100"])]})
conv("en-promo-expired-then-fiveoff", CE, ["promotion", "checkout"],
     ["add two dinner plates", "can you apply summer2020?", "oh well, try FIVEOFF",
      "ok place the order, 12 Oak St, Portland, OR 97202"],
     {"orders": [order(CE, "USD", [["item_stoneware_dinner_plate", 2]], total="39.00")]})
conv("ja-uketori-pizza-not", TR, ["checkout", "pickup"],
     ["ティラミスを1つください", "持ち帰りで注文します"],
     {"orders": [order(TR, "USD", [["item_tiramisu", 1]])]}, lang="ja")
json.dump(C, open("tests/conversations/checkout_round7_unseen.json", "w"), ensure_ascii=False, indent=1)
print(len(C))
