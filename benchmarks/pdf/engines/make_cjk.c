/* Writes a CJK page for the crispness benchmark with cairo's PDF surface (the font,
 * WenQuanYi Micro Hei from fonts-wqy-microhei, is embedded as a subset): a 22 pt heading
 * and two columns of 9.5 pt Chinese body text with a little Japanese and Latin.
 *     make_cjk OUT.pdf */
#include <cairo.h>
#include <cairo-pdf.h>
#include <stdio.h>
#include <string.h>

static const char *lines[] = {
    "港口的灯塔守护者在冬天的夜里点亮了灯，", "北方的岛屿上风雪交加，渔船在港湾里等待。",
    "清晨的海岸线上，市场开始热闹起来，村庄", "里的人们沿着河边的小路走向车站。信号灯",
    "在傍晚时分亮起，窗外的花园里一片安静。", "读者来信讲述了这座城市的历史与变迁，",
    "报纸的版面上印着天气、季节和鱼市的消息。", "夜は長く、灯台の光が海を照らしていた。",
    "山と川の間にある小さな駅で、手紙を待つ。", "The harbour light keeper (灯塔守护者) wrote:",
    "长夜漫漫，风暴过后的早晨格外明亮。渔民", "们修补渔网，孩子们在码头上奔跑。邮递员",
    "把信件送到每一户人家，季节在悄悄变换。", "山间的道路蜿蜒曲折，河水缓缓流向大海。",
};

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: make_cjk OUT.pdf\n"); return 2; }
    cairo_surface_t *surface = cairo_pdf_surface_create(argv[1], 595, 842);
    cairo_t *cr = cairo_create(surface);
    cairo_select_font_face(cr, "WenQuanYi Micro Hei", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 22);
    cairo_move_to(cr, 48, 80);
    cairo_show_text(cr, "港口灯塔的冬天 · 第十二期");
    cairo_set_font_size(cr, 9.5);
    for (int column = 0; column < 2; column++)
        for (int row = 0; row < 56; row++) {
            cairo_move_to(cr, 48 + column * 256, 120 + row * 12.6);
            cairo_show_text(cr, lines[(row * 3 + column * 5) % (sizeof lines / sizeof *lines)]);
        }
    cairo_set_line_width(cr, 0.5);
    cairo_move_to(cr, 48, 96);
    cairo_line_to(cr, 547, 96);
    cairo_stroke(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    return 0;
}
