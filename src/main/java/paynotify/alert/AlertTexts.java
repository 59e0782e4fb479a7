package paynotify.alert;

import java.util.Map;
import paynotify.booking.anomaly.AnomalyKind;

/**
 * What the alerts say, in the owner's language ({@code alerts.language}: zh, the default, or en): each kind's
 * name and what to do. English is the anomalies' own text (AnomalyKind, the reconcile findings' hints), so the
 * status page and a message say the same; Chinese says it for an owner in mainland China.
 */
public final class AlertTexts {
  /** Chinese: the kind's name, then what to do. */
  private static final Map<String, String[]> ZH = Map.ofEntries(
      zh("unknown_order", "未知订单的付款", "找到买家要买的订单并发货，或退款"),
      zh("not_our_number", "不是本站格式的订单号", "没有记账：订单号不是按 orders.out_trade_no 的格式写的，是同一商户号或密钥下另一个网站的；若是设置格式之前的本站订单，请手动处理"),
      zh("amount_mismatch", "付款金额与订单不符", "核对订单价格：发货并补差价，或退款；订单仍是未付款"),
      zh("second_payment", "重复支付", "订单已由另一笔交易付过，把这笔退给买家"),
      zh("already_paid", "订单已在别处标记为已付", "确认是否就是这笔交易付的；若不是，退款"),
      zh("currency_mismatch", "币种不符", "核对订单：手动接受这笔付款，或退款"),
      zh("trade_no_too_long", "交易号超出订单表的列宽", "按详情加宽订单表的交易号列（ALTER TABLE ... MODIFY）；订单已标记为已付"),
      zh("paid_after_close", "订单关闭后才付款", "重新打开订单并发货，或退款"),
      zh("unexpected_order_status", "订单状态无法识别", "查看订单：付款已记录，订单未改动"),
      zh("conflict", "同一交易内容不一致", "与平台账单核对：没有重复记账，第二个版本未记账"),
      zh("over_refund", "退款超过付款", "在平台后台核对这笔交易的退款"),
      zh("refund_without_payment", "退款找不到对应付款", "对账当天账单；用 paynotify repair book 补记丢失的付款"),
      zh("unreadable_notification", "无法读取的通知", "在 notify_log 里看通知原文，并在平台网站上核对交易"),
      zh("payment_without_order", "付款没有指明订单", "在平台网站上按买家、金额、时间找到订单并发货，或退款"),
      zh("price_shift", "实付金额偏离订单价格", "到 V免签 后台和收款手机上核对：买家确实付了就手动发货（或调大 vmq.max_price_shift），否则没有收到钱"),
      zh("ambiguous_payment", "V免签 通知可读作两个订单的付款", "到 V免签 后台按 payId 查这笔付款的 param 和金额：手动把付款的那个订单标记为已付并发货；另一个订单没有收到这笔钱"),
      zh("unbooked_payment", "未记账的付款类型", "在平台网站上核对：若是为订单付款，手动发货，否则退款"),
      zh("unbooked_refund", "平台上的退款未记账", "到平台后台查这笔退款：买家已收到退款就在网站上手动标记已退款（不要发货）；退款失败则订单仍是已付"),
      zh("chargeback_reversed", "拒付已撤销", "钱已回到你这边：订单仍显示已退款，如需要请重新发货"),
      zh("dispute", "买家发起争议", "由你应诉的（Stripe、Creem）：在截止日期前到平台网站上回应争议；由平台应诉的（Paddle，详情会说明）：决定是否停止该订单的交付；拒付已判你胜诉则无需再做什么"),
      zh("refund_failed", "退款失败", "买家没有收到退款：换一种方式退款，或重新打开订单"),
      zh("callback_missing", "回调没有到达", "检查平台上设置的通知地址、nginx 的 location、前面的 CDN/WAF（不能拦截或质询平台的 POST）和 TLS 证书"),
      zh("booking_failed", "记账一再失败", "没有记账：按详情里的错误修好原因（日志里有每次的尝试），再让平台重新发送这个事件（Stripe：Workbench → Webhooks → 你的接收地址 → 该事件 → Resend），它会被记账（本条随之关闭）。Stripe 自己也会重试数天：手动发货前，先确认订单此时仍未支付"),
      zh("query_says_paid", "查询显示已付但未记账", "到聚合平台商户后台查这笔订单：若已付，点补单/重新通知"),
      zh("awaiting_confirmation", "签名通知等待平台查询确认", "没有记账：聚合平台自己的订单查询还没有确认这笔交易和金额；确认后会自动记账并关闭本条。一直不确认就到商户后台查这笔订单：未付款说明有人用你的密钥伪造了通知（到平台更换密钥）；已退款说明付过又退了；已付款则问平台为何查询不符"),
      zh("paid_then_refunded", "已付款后又在平台退款", "发货前先核对：订单仍是未付款；到平台商户后台看退了多少，全额退款则无需发货，部分退款请与买家结清并手动改订单"),
      zh("paid_before_order", "付款早于订单创建", "这笔交易付的是更早的同号订单（数据库从备份恢复、重装、另一个网站共用商户号），不是这个订单，订单仍是未付款：查清是谁的付款，并让订单号不再重复发放"),
      zh("forward_failed", "通知网站失败", "修好网站的接收地址，然后运行 paynotify forward retry --all-failed"),
      zh("forward_endpoint_gone", "接收地址已停用（410）", "接收地址回答 410 Gone，已停止发送：修好地址或接收程序，然后运行 paynotify forward enable（积压的事件随后发出）"),
      zh("forward_endpoint_refusing", "接收地址连续拒收事件（4xx）", "已停止发送：401/403 多半是密钥不一致，404 是地址变了；修好后运行 paynotify forward enable（积压的事件随后发出）"),
      zh("missing_local", "平台已收款、这里没有记账（丢失的通知）", "用 paynotify repair book 补记"),
      zh("missing_platform", "这里记了账、平台账单上没有", "到平台后台查这笔交易；若没付款，记账有误"),
      zh("refund_missing_local", "平台已退款、这里没有记账", "退款通知丢失了"),
      zh("refund_missing_platform", "这里记了退款、平台账单上没有", "到平台后台查这笔退款"),
      zh("refund_amount_mismatch", "退款金额与平台不符", "与平台记录核对这笔退款"),
      zh("duplicate_trade", "同一交易记账多次", "删除多余的行"),
      zh("order_paid_twice", "一个订单被付了两次", "退还其中一笔"));

  private final boolean chinese;

  public AlertTexts(String language) {
    this.chinese = !"en".equals(language);
  }

  private static Map.Entry<String, String[]> zh(String kind, String name, String action) {
    return Map.entry(kind, new String[] {name, action});
  }

  public boolean chinese() {
    return chinese;
  }

  /** The kind's name for a title: Chinese, or the code itself in English (as the status page lists it). */
  public String name(String kind) {
    String[] zh = ZH.get(kind);
    return chinese && zh != null ? zh[0] : kind;
  }

  /** What to do about an anomaly of {@code kind}, given its English text (the status page's). */
  public String action(String kind, String english) {
    String[] zh = ZH.get(kind);
    return chinese && zh != null ? zh[1] : english;
  }

  /** {@code zh} or {@code en}, whichever the owner reads. */
  public String pick(String zh, String en) {
    return chinese ? zh : en;
  }

  /** The English "what to do" of an anomaly kind this version knows; null for others (the reconcile findings'). */
  static String englishAction(String kind) {
    AnomalyKind k = AnomalyKind.of(kind);
    return k == null ? null : k.action();
  }
}
